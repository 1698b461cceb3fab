// The Residual view's contribution graph (app/model/contribution_tool.h): the LLM Transparency Tool's information
// flow routes into one token's stream. Tokens along x, the stream after each block up y (the embeddings at the
// bottom); each kept edge a line whose width and opacity grow with its share, coloured by kind (attention, cross-
// attention, FFN, the stream itself); a threshold slider; a click on a token's label picks it; hovering a line
// shows its share; a click on an attention line opens the Attention view at that layer and head (the line's
// strongest), with the query and key cell selected.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_contribution_graph(PanelContext& ctx);

}  // namespace attnlab::gui
