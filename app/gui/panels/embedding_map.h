// The Analysis view's embeddings tool: the tokens nearest to a chosen one, and a 2-D PCA map of
// it, its neighbours and the sentence's tokens.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_embedding_tool(PanelContext& ctx);

}  // namespace attnlab::gui
