// The training view's plots of an induction run (TrainProgress::induction): the loss on the first and on the
// second copy over the steps, each head's latest induction score as a layer × head grid (click a cell to follow that
// head), and the followed head's induction, previous-token and duplicate-token scores over the steps.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

// The loss on either copy, with its header, in a (width, height) box at the cursor.
void draw_copy_losses(PanelContext& ctx, const TrainProgress& p, ImVec2 size);

// The grid beside the followed head's scores, with their headers, filling (width, height) from the cursor.
void draw_head_scores(PanelContext& ctx, const TrainProgress& p, ImVec2 size);

}  // namespace attnlab::gui
