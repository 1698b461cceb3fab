// Predict mode ("predict, then reveal"): each step forward covers the view and the stepper's numbers
// until R reveals them. While it is on, the menu bar says so in every view, classroom mode included,
// so a covered view is never a mystery. The app's keys, menus and indicator call these.
#pragma once

#include "view_state.h"

#include <cstddef>

namespace attnlab::gui {

// P and the View menu's item: on, or off and uncovered.
void toggle_predict(ViewState& view);
// Off and uncovered: the indicator clicked, the tour ended.
void end_predict(ViewState& view);
// The cursor moved from `last` to `now` (SIZE_MAX: nothing run before): a step forward in predict mode covers the view.
void cover_after_step(ViewState& view, size_t last, size_t now);
// Whether the menu bar shows "● Predict mode: on (P to turn off)".
bool shows_predict_indicator(const ViewState& view);

}  // namespace attnlab::gui
