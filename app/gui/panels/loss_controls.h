// The Output view's backward-pass section: the loss the backward half starts from (next-token, one token's
// cross-entropy at a position, or the difference of two logits), its value, a button that runs the backward
// pass, and each input token's saliency (‖∂L/∂x‖ and gradient × input) once the gradient has reached the inputs.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_loss_section(PanelContext& ctx);

// A saliency cell: a bar track with a fill ∝ share at the left, and the value's text after it (right-aligned
// in the cell), so the text never lies over the fill. Widths in pixels, x from the cell's left edge.
struct ValueBarLayout {
    float track_width = 0.0f;  // the bar's full length (share 1)
    float fill_width = 0.0f;   // share × track_width
    float text_x = 0.0f;       // where the value's text starts
};
ValueBarLayout value_bar_layout(float share, float cell_width, float text_width, float gap);

}  // namespace attnlab::gui
