// libFuzzer target: PairBatches::make (a TSV of "source<TAB>target" lines for an encoder-decoder) on arbitrary bytes,
// with our encoder-decoder (max_len 12) and the character vocabulary on both sides; the first byte picks the batch
// size B = 1 … 4, the rest is the TSV.
// Properties: an error is one line naming the file; on success every non-empty line is a pair, each src ends with
// <eos>, each tgt_in starts with <sos>, no side is empty or longer than max_len; batch k holds pairs
// (k·B + b) mod n_pairs, padded with pad_id to S = max S_i and T = max T_i, tgt_out being tgt_in shifted left by one
// and ending with <eos>.
#include "fuzz_common.h"
#include "model.h"
#include "text/vocab.h"
#include "train/pair_batches.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

using namespace attnlab;

namespace {

constexpr const char* kSourceName = "fuzz.tsv";

Model make_model() {
    Model model;
    model.src_vocab = model.tgt_vocab = default_char_vocab();
    model.tokenizer = TokenizerKind::character;
    Result<ModelConfig> config = preset_config("tiny", model.src_vocab->size(), model.tgt_vocab->size());
    FUZZ_CHECK(config.ok(), "preset_config");
    model.config = *config;
    model.config.max_len = 12;
    FUZZ_CHECK(validate_config(model.config).ok(), "validate_config");
    return model;
}

// Lines split at "\n", one "\r" before it dropped, empty ones skipped: what make reads as pairs.
int64_t count_pair_lines(std::string_view tsv) {
    int64_t n = 0;
    for (size_t begin = 0; begin < tsv.size();) {
        const size_t newline = std::min(tsv.find('\n', begin), tsv.size());
        std::string_view line = tsv.substr(begin, newline - begin);
        begin = newline + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        n += !line.empty();
    }
    return n;
}

void check_pairs(const PairBatches& batches, const ModelConfig& c, int64_t n_lines) {
    FUZZ_CHECK(batches.n_pairs() >= 1, "no pairs accepted");
    FUZZ_CHECK(batches.n_pairs() == n_lines, "n_pairs is not the number of non-empty lines");
    FUZZ_CHECK(batches.n_unknown() >= 0, "negative n_unknown");
    for (const EncodedPair& p : batches.pairs()) {
        // A side holds at least one character (an empty side is an error), plus <eos> / <sos>.
        FUZZ_CHECK(p.src.size() >= 2 && p.src.size() <= static_cast<size_t>(c.max_len), "src length");
        FUZZ_CHECK(p.tgt_in.size() >= 2 && p.tgt_in.size() <= static_cast<size_t>(c.max_len), "tgt_in length");
        FUZZ_CHECK(p.src.back() == c.eos_id, "src does not end with eos");
        FUZZ_CHECK(p.tgt_in.front() == c.sos_id, "tgt_in does not start with sos");
        for (int id : p.src) FUZZ_CHECK(id >= 0 && id < c.src_vocab_size, "src id outside the vocab");
        for (int id : p.tgt_in) FUZZ_CHECK(id >= 0 && id < c.tgt_vocab_size, "tgt_in id outside the vocab");
    }
}

// Batch k against the contract in pair_batches.h.
void check_batch(PairBatches& batches, const ModelConfig& c, int B, int64_t k) {
    const Batch batch = batches.batch(k);
    const std::vector<EncodedPair>& pairs = batches.pairs();
    const int64_t n = batches.n_pairs();
    FUZZ_CHECK(batch.B == B, "batch.B is not the batch size");
    FUZZ_CHECK(batch.pad_id == c.pad_id, "batch.pad_id is not the config's");
    size_t S = 0, T = 0;
    for (int b = 0; b < B; ++b) {
        const EncodedPair& p = pairs[static_cast<size_t>((k * B + b) % n)];
        S = std::max(S, p.src.size());
        T = std::max(T, p.tgt_in.size());
    }
    FUZZ_CHECK(batch.S == static_cast<int>(S) && batch.T == static_cast<int>(T), "S or T is not the rows' longest");
    FUZZ_CHECK(batch.src.size() == B * S && batch.tgt_in.size() == B * T && batch.tgt_out.size() == B * T,
               "array sizes are not (B, S) / (B, T)");
    for (int b = 0; b < B; ++b) {
        const EncodedPair& p = pairs[static_cast<size_t>((k * B + b) % n)];
        const size_t row = static_cast<size_t>(b);
        for (size_t s = 0; s < S; ++s)
            FUZZ_CHECK(batch.src[row * S + s] == (s < p.src.size() ? p.src[s] : c.pad_id), "src row");
        const size_t Ti = p.tgt_in.size();
        for (size_t t = 0; t < T; ++t) {
            FUZZ_CHECK(batch.tgt_in[row * T + t] == (t < Ti ? p.tgt_in[t] : c.pad_id), "tgt_in row");
            const int out = t + 1 < Ti ? p.tgt_in[t + 1] : t + 1 == Ti ? c.eos_id : c.pad_id;
            FUZZ_CHECK(batch.tgt_out[row * T + t] == out, "tgt_out row is not tgt_in shifted left, then eos");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const Model model = make_model();
    if (size == 0) return 0;
    const int B = 1 + data[0] % 4;
    const std::string_view tsv(reinterpret_cast<const char*>(data) + 1, size - 1);

    Result<std::unique_ptr<PairBatches>> made = PairBatches::make(model, tsv, kSourceName, B);
    if (!made) {
        const std::string& message = made.error().message;
        FUZZ_CHECK(is_one_line(message), "bad error message: " + message);
        FUZZ_CHECK(message.rfind(std::string(kSourceName) + ":", 0) == 0, "error does not name the file: " + message);
        return 0;
    }
    PairBatches& batches = **made;
    FUZZ_CHECK(batches.trains() == Arch::encoder_decoder, "pairs train an encoder-decoder");
    check_pairs(batches, model.config, count_pair_lines(tsv));
    for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{1000003}, int64_t{1} << 40})
        check_batch(batches, model.config, B, k);
    return 0;
}
