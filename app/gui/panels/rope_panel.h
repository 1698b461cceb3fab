// The RoPE view: the Positional encoding tab of a model with rotary positions (ModelConfig::positional ==
// Positional::rotary). For a chosen layer, head, query row m and key row n (view.positional.rope): every
// pair's angle p·θ_i by position beside the paper's sinusoidal PE, the query's and key's pairs as 2-D
// vectors before and after their turn, the score as a function of the offset m − n with the shift
// check and the trace's own score, and what rope_scaling does to the frequencies. Numbers from
// core/analysis/rope_view.h; drawn with ImDrawList and the heatmap widget.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_rope_panel(PanelContext& ctx);

}  // namespace attnlab::gui
