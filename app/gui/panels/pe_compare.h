// The Positional view's comparison of the schemes (view.positional.compare.on): small multiples of the same size, one
// (N, N) picture per scheme on the sentence (query i by row, key j by column, with the tokens), each saying whether it
// is added to the embeddings or to the scores, and first the attention the open model actually produces at a chosen
// layer and head. Hover names i, j and the value. The panels come from app/model/position_comparison.h.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_position_comparison(PanelContext& ctx);

}  // namespace attnlab::gui
