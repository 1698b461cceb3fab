// libFuzzer target: config_from_json on arbitrary text.
// Properties: errors are one line; a config that reads is valid, and
// config_to_json -> config_from_json gives an equal config and the same JSON text.
#include "config.h"
#include "fuzz_common.h"

#include <cstdint>
#include <string>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto config = config_from_json(text);
    if (!config) {
        FUZZ_CHECK(is_one_line(config.error().message), "bad error message: " + config.error().message);
        return 0;
    }
    FUZZ_CHECK(validate_config(*config).ok(), "config_from_json accepted an invalid config");
    const std::string json = config_to_json(*config);
    auto again = config_from_json(json);
    FUZZ_CHECK(again.ok(), again.ok() ? json : again.error().message + " in " + json);
    FUZZ_CHECK(*again == *config, "config changed in to_json -> from_json: " + json);
    FUZZ_CHECK(config_to_json(*again) == json, "config_to_json is not stable: " + json);
    return 0;
}
