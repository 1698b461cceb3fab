// The Output view's "Why this output?": direct logit attribution, live (app/model/attribution_tool.h). The metric
// picker (one token's logit or the difference of two, tokens typed by name, a position); the attention × head
// heatmap of each head's share, on a diverging scale with its legend, a click selecting a head; the selected
// head's share per source token; the embeddings' and each layer's heads' and FFN's shares as bars (a click on an
// FFN selects it); the check that the shares add up to the metric; and the tokens the selected head or FFN pushes
// up and down through the final norm and the unembedding.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_why_output(PanelContext& ctx);

}  // namespace attnlab::gui
