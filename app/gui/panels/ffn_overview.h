// The FFN overview: every hidden unit of every token (N, F) in one heatmap, folded into strips
// of W units when F does not fit the width at 2 px a cell (strip c holds units [c·W, (c+1)·W);
// strips are apart by a row of NaN, drawn hatched), with the zoomed window outlined.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

struct UnitHit {
    int token = -1, unit = -1;  // the hovered cell, or -1
    bool clicked = false;
};

// Draws entry.value (N, F) coloured over [lo, hi] and outlines units [first, first + window).
UnitHit draw_units_overview(PanelContext& ctx, const std::string& path, const TraceEntry& entry, Colormap colormap,
                            float lo, float hi, int first, int window);

}  // namespace attnlab::gui
