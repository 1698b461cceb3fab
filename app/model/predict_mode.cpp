// Predict mode's switches and its cover.
#include "predict_mode.h"

#include <cstdint>

namespace attnlab::gui {

void toggle_predict(ViewState& view) {
    view.settings.predict = !view.settings.predict;
    view.stepper.hidden = false;
}

void end_predict(ViewState& view) {
    view.settings.predict = false;
    view.stepper.hidden = false;
}

void cover_after_step(ViewState& view, size_t last, size_t now) {
    if (view.settings.predict && last != SIZE_MAX && now > last) view.stepper.hidden = true;
}

bool shows_predict_indicator(const ViewState& view) { return view.settings.predict; }

}  // namespace attnlab::gui
