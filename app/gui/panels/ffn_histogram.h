// A histogram of a layer's FFN values, drawn with ImDrawList bars.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

// values: (N, F). skip_zeros leaves ReLU's exact zeros out of the bars and counts them in the caption.
void draw_ffn_histogram(const PanelContext& ctx, const Tensor& values, bool skip_zeros);

}  // namespace attnlab::gui
