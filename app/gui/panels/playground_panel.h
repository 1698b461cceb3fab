// The playground view's two halves, each in its own file; draw_playground_panel (in
// playground_panel.cpp) shows the one the user picked.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

// What the user types (X and W, or Q, K, V, and the mask), every stage with all its numbers,
// and the arithmetic of the chosen query and key written out (playground_panel_stages.cpp).
void draw_hand_tables(PanelContext& ctx);

// The "why √d_k" experiment: plots and a table over d_k (playground_panel_experiment.cpp).
void draw_scaling_experiment(PanelContext& ctx);

// A paragraph of explanation: dim and wrapped, or on a projector (presentation mode), where the
// tables need the room, one "(?)" line that shows the paragraph on hover.
void explanation(const PanelContext& ctx, const char* text);

}  // namespace attnlab::gui
