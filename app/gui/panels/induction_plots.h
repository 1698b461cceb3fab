// The training view's plots of an induction run (TrainProgress::induction): the loss on the first and on the
// second copy over the steps, each head's latest induction score as a layer × head grid (click a cell to follow that
// head), and the followed head's induction, previous-token and duplicate-token scores over the steps. The same
// plots draw a training history's record (panels/checkpoint_slider.h), its scrubbed point marked.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

// What the plots of a record show: the steps 0 … x_max, and the point whose step is marked and whose scores the grid
// shows (-1: the latest, unmarked, as a live run has it).
struct InductionPlotFocus {
    float x_max = 1.0f;
    int point = -1;
};
void draw_copy_losses(PanelContext& ctx, const InductionRecord& r, const InductionPlotFocus& focus, ImVec2 size);
void draw_head_scores(PanelContext& ctx, const InductionRecord& r, const InductionPlotFocus& focus, ImVec2 size);

// The loss on either copy, with its header, in a (width, height) box at the cursor.
void draw_copy_losses(PanelContext& ctx, const TrainProgress& p, ImVec2 size);

// The grid beside the followed head's scores, with their headers, filling (width, height) from the cursor.
void draw_head_scores(PanelContext& ctx, const TrainProgress& p, ImVec2 size);

}  // namespace attnlab::gui
