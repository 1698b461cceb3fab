// The Output view's "Patching": activation patching, live (app/model/patching_tracker.h over patching_run.h). The
// metric is "Why this output?"'s; the corrupted sentence is the Input view's. A piece picker (the pieces the model
// has), then the exact grid (rows: layers; columns: positions with their tokens, or heads) as a heatmap, raw or
// normalised, on a diverging scale with its legend and hover values, a click marking a cell; beside it the gradient
// estimate (attribution patching), and the Pearson correlation of the two. The grids are computed off the window's
// thread under a progress card with Cancel, anew when the clean run's logits, the corrupted input, the metric or the
// piece change.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_patching_view(PanelContext& ctx);

}  // namespace attnlab::gui
