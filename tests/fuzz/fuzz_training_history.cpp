// libFuzzer target: a training history file (train/training_history_file.h) from hostile bytes: parse_safetensors,
// then history_from_safetensors.
// Properties: errors are one line starting with the source name; a history that reads writes back to a file that
// reads to the same history and re-serializes bit for bit, and each of its checkpoints is a valid model.
#include "fuzz_common.h"
#include "io/safetensors.h"
#include "train/training_history_file.h"

#include <cstdint>
#include <span>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto parsed = io::parse_safetensors(std::span<const uint8_t>(data, size), "fuzz");
    if (!parsed) return 0;  // fuzz_safetensors checks the parser's own errors
    auto history = history_from_safetensors(std::move(*parsed), "fuzz");
    if (!history) {
        const std::string& m = history.error().message;
        FUZZ_CHECK(is_one_line(m) && m.rfind("fuzz", 0) == 0, "bad error message: " + m);
        return 0;
    }
    FUZZ_CHECK(!history->checkpoints.empty(), "a history without checkpoints read");
    for (size_t i = 0; i < history->checkpoints.size(); ++i) {
        FUZZ_CHECK(history->checkpoints[i].heads.size() ==
                       static_cast<size_t>(history->layers) * static_cast<size_t>(history->heads),
                   "a checkpoint's scores are not layers · H");
        FUZZ_CHECK(check_model(history->at(i)).ok(), "checkpoint " + std::to_string(i) + " is not a valid model");
    }
    const std::vector<uint8_t> bytes = io::serialize_safetensors(history_to_safetensors(*history));
    auto again = io::parse_safetensors(bytes, "again");
    FUZZ_CHECK(again.ok(), "a written history does not parse");
    auto history_again = history_from_safetensors(std::move(*again), "again");
    FUZZ_CHECK(history_again.ok(), history_again.ok() ? "" : history_again.error().message);
    FUZZ_CHECK(io::serialize_safetensors(history_to_safetensors(*history_again)) == bytes,
               "write -> read -> write is not bit-identical");
    return 0;
}
