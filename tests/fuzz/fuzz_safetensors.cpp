// libFuzzer target: io::parse_safetensors on hostile bytes.
// Properties: errors are one line starting with the source name; a file that parses
// serializes to bytes that parse back to the same tensors (bit for bit) and metadata, and
// re-serialize identically; io::model_from_safetensors returns (ok or error), never crashes.
#include "fuzz_common.h"
#include "io/model_file.h"
#include "io/safetensors.h"

#include <cstdint>
#include <cstring>
#include <span>

using namespace attnlab;

namespace {

void check_same_tensors(const io::SafetensorsFile& a, const io::SafetensorsFile& b) {
    FUZZ_CHECK(a.metadata == b.metadata, "metadata changed in serialize -> parse");
    FUZZ_CHECK(a.tensors.size() == b.tensors.size(), "tensor count changed in serialize -> parse");
    for (auto ia = a.tensors.begin(), ib = b.tensors.begin(); ia != a.tensors.end(); ++ia, ++ib) {
        FUZZ_CHECK(ia->first == ib->first, "tensor name changed: " + ia->first);
        const Tensor& ta = ia->second;
        const Tensor& tb = ib->second;
        FUZZ_CHECK(ta.shape == tb.shape, "shape changed: " + ia->first);
        FUZZ_CHECK(ta.data.size() == tb.data.size(), "element count changed: " + ia->first);
        // Bytes, not floats: NaN payloads and -0.0 must survive too.
        FUZZ_CHECK(ta.data.empty() || std::memcmp(ta.data.data(), tb.data.data(), ta.data.size() * sizeof(float)) == 0,
                   "tensor bytes changed: " + ia->first);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto parsed = io::parse_safetensors(std::span<const uint8_t>(data, size), "fuzz");
    if (!parsed) {
        const std::string& m = parsed.error().message;
        FUZZ_CHECK(is_one_line(m) && m.rfind("fuzz: ", 0) == 0, "bad error message: " + m);
        return 0;
    }

    const std::vector<uint8_t> bytes = io::serialize_safetensors(*parsed);
    auto again = io::parse_safetensors(bytes, "again");
    FUZZ_CHECK(again.ok(), again.ok() ? "" : again.error().message);
    check_same_tensors(*parsed, *again);
    FUZZ_CHECK(io::serialize_safetensors(*again) == bytes, "serialize -> parse -> serialize is not bit-identical");

    auto model = io::model_from_safetensors(std::move(*parsed), "fuzz");
    if (!model) {
        const std::string& m = model.error().message;
        FUZZ_CHECK(is_one_line(m) && m.rfind("fuzz: ", 0) == 0, "bad model error message: " + m);
        return 0;
    }
    // A model that loads must save and load again.
    const std::vector<uint8_t> model_bytes = io::serialize_safetensors(io::model_to_safetensors(*model));
    auto reparsed = io::parse_safetensors(model_bytes, "model");
    FUZZ_CHECK(reparsed.ok(), reparsed.ok() ? "" : reparsed.error().message);
    auto reloaded = io::model_from_safetensors(std::move(*reparsed), "model");
    FUZZ_CHECK(reloaded.ok(), reloaded.ok() ? "" : reloaded.error().message);
    FUZZ_CHECK(reloaded->config == model->config, "config changed in model save -> load");
    return 0;
}
