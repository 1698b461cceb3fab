// The Attention view's "Knockout" (연결 끊기) mode, in the head detail: a click on a cell (query, key) of the weights
// blocks that edge in the shown head or in every head of the layer (its score −∞ before the softmax, on a copy of
// the run: the user's mask is never edited), and the side pane shows the metric before → after and the change. A
// button computes the whole layer's grid of changes (app/model/knockout_run.h, off the window's thread), drawn in
// place of the weights on a diverging scale with its legend and hover values. The metric is the Output view's
// "Why this output?" one: the header names it and where to change it.
#pragma once

#include "panels/panel_context.h"
#include "panels/zoom_matrix.h"

#include <string>
#include <vector>

namespace attnlab::gui {

// The mode's switch; on, its controls (the metric, this head or every head, the grid button and its progress).
// Returns whether the mode is on.
bool knockout_header(PanelContext& ctx, const AttentionSite& site);
// With the grid shown and ready for this layer: `plot` draws it instead of the weights (true). Else false.
bool knockout_grid_plot(PanelContext& ctx, const AttentionSite& site, ZoomMatrixPlot& plot);
// A click on cell (query, key): that edge is knocked out.
void knockout_click(PanelContext& ctx, int query, int key);
// The side pane: the edge, the metric before → after and the change, or what to do.
void knockout_pane(PanelContext& ctx, const AttentionSite& site, const std::vector<std::string>& query_labels,
                   const std::vector<std::string>& key_labels);

}  // namespace attnlab::gui
