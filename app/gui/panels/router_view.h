// The router view of a mixture-of-experts layer, inside the FFN view: a token × expert heatmap of the routing weights
// (each token's chosen experts), the load per expert over the sentence as bars, a click on an expert's column or bar
// to switch it off (and back), and the hidden units of the chosen experts of the token clicked. Drawn with
// ImDrawList; its numbers come from app/model/router_table.h.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_router_view(PanelContext& ctx, Stack stack, int layer);

}  // namespace attnlab::gui
