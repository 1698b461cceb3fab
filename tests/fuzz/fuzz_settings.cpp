// libFuzzer target: the app's settings file (~/.config/attnlab/settings.json, or --settings FILE) read by
// ViewState::from_json (app/model/view_state.h), which must take any bytes: a malformed, mistyped or
// out-of-range field keeps its default, and start-up never fails.
// Properties: reading never crashes or throws; what is read writes as JSON that reads back to the same
// settings (to_json(from_json(to_json(s))) == to_json(s)), so a setting never drifts from one run to the next.
#include "fuzz_common.h"
#include "view_state.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

using namespace attnlab::gui;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string written = ViewState::from_json(text).to_json();
    FUZZ_CHECK(nlohmann::json::accept(written), "settings written as something that is not JSON");
    const std::string again = ViewState::from_json(written).to_json();
    FUZZ_CHECK(again == written, "settings changed on being written and read again:\n" + written + "\n" + again);
    return 0;
}
