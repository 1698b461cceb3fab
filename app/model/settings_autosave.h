// SettingsAutosave: when to write the settings while the app runs, so a crash or a killed window loses
// at most a second of them. At most once every `interval` seconds it serialises the view state and
// asks for a write when the JSON differs from the last one written; the write itself is
// save_view_state's (atomic: a temporary file renamed over the old).
#pragma once

#include "view_state.h"

#include <optional>
#include <string>

namespace attnlab::gui {

class SettingsAutosave {
public:
    // `written`: the settings JSON as the run started (ViewState::to_json), so that nothing is
    // written until something changes.
    explicit SettingsAutosave(std::string written, double interval_seconds = 1.0)
        : written_(std::move(written)), interval_(interval_seconds) {}

    // True when the settings should be written now: `interval` seconds or more since the last look
    // (`now` in seconds from any fixed origin), and `state`'s JSON differs from the last written. A
    // true answer counts as written, so a failed write is retried only after the next change.
    bool due(const ViewState& state, double now);

private:
    std::string written_;
    double interval_;
    std::optional<double> last_look_;
};

}  // namespace attnlab::gui
