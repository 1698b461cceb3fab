// libFuzzer target: load_hf_folder on a hostile folder. The input is split into config.json and
// model.safetensors: its first 4 bytes (little-endian) give config.json's length, the rest of
// that many bytes is config.json, and everything after it is model.safetensors.
// Properties: errors are one line and name the folder; a folder that loads has weights that
// match its config, and a small one runs a whole forward pass on a few ids without a crash.
#include "fuzz_common.h"
#include "hf/hf_folder.h"
#include "stepper.h"
#include "weights.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace attnlab;

namespace {

// One folder per fuzzing process, rewritten for every input.
const std::string& folder() {
    static const std::string dir = [] {
        char pattern[] = "/tmp/attnlab-fuzz-hf-XXXXXX";
        const char* made = ::mkdtemp(pattern);
        FUZZ_CHECK(made != nullptr, "mkdtemp failed");
        return std::string(made);
    }();
    return dir;
}

void write_file(const std::string& path, const uint8_t* data, size_t size) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    FUZZ_CHECK(f != nullptr, "cannot write " + path);
    FUZZ_CHECK(size == 0 || std::fwrite(data, 1, size, f) == size, "short write to " + path);
    std::fclose(f);
}

constexpr int64_t kMaxParametersToRun = 200'000;  // a forward pass per input stays fast

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 4) return 0;
    const size_t config_len =
        std::min<size_t>(size - 4, data[0] | data[1] << 8 | data[2] << 16 | uint32_t(data[3]) << 24);
    write_file(folder() + "/config.json", data + 4, config_len);
    write_file(folder() + "/model.safetensors", data + 4 + config_len, size - 4 - config_len);

    auto loaded = load_hf_folder(folder());
    if (!loaded) {
        const std::string& m = loaded.error().message;
        FUZZ_CHECK(is_one_line(m), "error is not one line: " + m);
        FUZZ_CHECK(m.find(folder()) != std::string::npos, "error does not name the folder: " + m);
        return 0;
    }
    const Model& model = loaded->model;
    FUZZ_CHECK(check_weights(model.config, model.weights).ok(), "a loaded folder's weights do not fit its config");
    if (parameter_count(model.config) > kMaxParametersToRun) return 0;

    ForwardInputs in;
    const int vocab_src = model.config.src_vocab_size, vocab_tgt = model.config.tgt_vocab_size;
    if (model.config.has_encoder()) in.src_ids = {0, vocab_src - 1};
    if (model.config.has_decoder()) in.tgt_ids = {0, vocab_tgt - 1};
    auto stepper = Stepper::create(model.config, model.weights, in);
    if (!stepper) {
        FUZZ_CHECK(is_one_line(stepper.error().message), "stepper error is not one line: " + stepper.error().message);
        return 0;
    }
    stepper->run_all();
    FUZZ_CHECK(stepper->cursor() == stepper->size(), "the forward pass stopped early");
    return 0;
}
