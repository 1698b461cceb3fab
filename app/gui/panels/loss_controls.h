// The Output view's backward-pass section: the loss the backward half starts from (next-token, one token's
// cross-entropy at a position, or the difference of two logits), its value, a button that runs the backward
// pass, and each input token's saliency (‖∂L/∂x‖ and gradient × input) once the gradient has reached the inputs.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_loss_section(PanelContext& ctx);

}  // namespace attnlab::gui
