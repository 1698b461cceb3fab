// The Analysis view's head detectors (app/model/head_detector_tool.h): each self-attention head's induction,
// previous-token and duplicate-token score on L random tokens repeated twice, as three layer × head heatmaps on a
// 0…1 scale with its legend and the values on hover, and the heads ranked by the chosen score; the sequence's L,
// seed and BOS. A click on a cell or a row opens that head on that sequence: the session's input becomes the
// detector's ids (app/model/detector_sequence.h) and the Attention view shows the head; "Back to my sentence"
// brings the user's input back.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_head_detectors(PanelContext& ctx);

}  // namespace attnlab::gui
