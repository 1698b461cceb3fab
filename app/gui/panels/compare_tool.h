// The Analysis view's compare tool: run B beside the session's run A on the same input (this
// model with heads switched off, or another model or checkpoint), where along the steps the two
// traces part, and any step's B − A as a heatmap. It draws CompareRun (app/model/compare_run.h), which makes and
// keeps run B, and forwards the user's choices to the view state.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_compare_tool(PanelContext& ctx);

}  // namespace attnlab::gui
