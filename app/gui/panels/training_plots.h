// The training view's plots of what a run records besides its loss (TrainProgress::probes): the
// gradient norm of each layer over the steps, on a log scale, and the attention entropy of each head of
// one chosen attention (its use and layer picked above the plot) on a fixed held-out pair.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

// Each plot with its header in a (width, height) box at the cursor: its title (unless `titled` is false,
// when a tab already says it), a note, and for the entropies the attention's use and layer and the pair.
void draw_gradient_norms(PanelContext& ctx, const TrainProgress& p, ImVec2 size, bool titled);
void draw_head_entropies(PanelContext& ctx, const TrainProgress& p, ImVec2 size, bool titled);

// Both, side by side when the width allows, else one above the other, filling `height` pixels from the
// cursor, their bottoms level.
void draw_probe_plots(PanelContext& ctx, const TrainProgress& p, float height);

}  // namespace attnlab::gui
