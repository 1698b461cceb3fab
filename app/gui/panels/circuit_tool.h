// The Analysis view's circuits tool: one head's QK circuit (which tokens attend to which) or OV
// circuit (what attending to a token writes, as logits), from its weights alone
// (core/analysis/head_circuits.h), over the sentence's tokens or a typed list, with the whole
// vocabulary ranked for the chosen row's token. It draws CircuitsTool (app/model/circuits_tool.h), which computes
// them, and forwards the user's choices to the view state.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_circuit_tool(PanelContext& ctx);

}  // namespace attnlab::gui
