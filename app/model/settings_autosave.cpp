// When the running app writes its settings: on a change, at most once an interval.
#include "settings_autosave.h"

namespace attnlab::gui {

bool SettingsAutosave::due(const ViewState& state, double now) {
    if (last_look_ && now - *last_look_ < interval_) return false;
    last_look_ = now;
    std::string json = state.to_json();
    if (json == written_) return false;
    written_ = std::move(json);
    return true;
}

}  // namespace attnlab::gui
