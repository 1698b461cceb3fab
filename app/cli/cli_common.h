// What every attnlab-cli command shares: error reporting with exit codes, number parsing,
// loading a model, and turning --src/--tgt/--src-ids/--tgt-ids into forward inputs.
#pragma once

#include "args.h"
#include "forward/step.h"
#include "model.h"
#include "ops/gemm_bf16_products.h"
#include "stepper.h"

#include <optional>
#include <string>

namespace attnlab::cli {

inline constexpr int kExitBadInput = 1;  // a bad file, id, or text
inline constexpr int kExitUsage = 2;     // a missing or malformed option

// Prints "attnlab-cli: <message>" on one line to stderr and returns `code`.
int fail(const std::string& message, int code);

std::optional<long long> parse_integer(const std::string& text);
// The integer value of --flag (or `fallback` when absent); nullopt if it is not an integer in [lo, hi].
std::optional<long long> integer_flag(const Args& args, const char* flag, long long fallback, long long lo,
                                      long long hi);
// The median of a list of timings (sorts it; asserts it is not empty).
double median_of(std::vector<double>& values);
// How BF16 weights are multiplied, in words: "exact (…)" or "dot (…)", as info, trace and bench print it.
std::string describe(Bf16Products products);
// "1,5,7" -> {1, 5, 7}; nullopt if any item is not an integer.
std::optional<std::vector<int>> parse_id_list(const std::string& text);

// Reads --src/--src-ids and --tgt/--tgt-ids for the model's architecture. Text gets <eos>
// appended (source) or <sos> prepended (target); ids are used exactly as given. An
// encoder_decoder model without a target starts from <sos>. A decoder_only model takes its
// sequence from --tgt (or --src, as a prompt). --src-types gives the source's token types
// (BERT's segments). Unknown words are listed in `unknown_words`.
struct InputRequest {
    ForwardInputs inputs;
    std::vector<std::string> unknown_words;
};
// On failure, *exit_code says whether it was usage (2) or input (1).
Result<InputRequest> inputs_from_args(const Model& model, const Args& args, int* exit_code);

extern const std::set<std::string> kInputFlags;  // src, src-ids, src-types, tgt, tgt-ids

// Loads args.positional[0] (a model file or a Hugging Face folder) into *model and starts a
// stepper on the inputs the flags give.
// Unknown words are reported on stderr as a note. On failure returns the message and sets *exit_code.
Result<Stepper> open_stepper(const Args& args, Model* model, int* exit_code);

}  // namespace attnlab::cli
