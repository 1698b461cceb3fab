// A mask too large to draw whole at kMinMaskCell a cell (panels/mask_sizing.h), as for a 992-token prompt: a
// square mask in the zoomable viewport of the attention detail (panels/zoom_matrix.h; Fit, its default, shows it
// whole), and a padding mask's one row as a strip a line tall whose every run of kept or padded keys shows.
#pragma once

#include "panels/panel_context.h"

#include <string>
#include <vector>

namespace attnlab::gui {

struct MaskHit {
    int row = -1, col = -1;  // the hovered cell, or -1
    bool clicked = false;
};

struct LongMask {
    std::string key;  // the texture's and the zoom's
    const Tensor* mask = nullptr;  // (rows, cols); a padding mask (1, cols)
    uint64_t version = 0;
    const std::vector<std::string>* rows = nullptr;
    const std::vector<std::string>* cols = nullptr;
};

// The strip's height with its gap below, for the layout.
float padding_strip_height(const PanelContext& ctx);
// The strip at the cursor, `width` pixels wide with its row label.
MaskHit draw_padding_strip(PanelContext& ctx, const LongMask& m, float width);

// The zoomable viewport's height for a matrix `cells_height` pixels tall: its toolbar, labels and colour bar too.
float zoomed_mask_height(const PanelContext& ctx, float cells_height);
// The viewport at the cursor in width × zoomed_mask_height(cells_height); the zoom is kept per mask.
MaskHit draw_zoomed_mask(PanelContext& ctx, const LongMask& m, float width, float cells_height);

}  // namespace attnlab::gui
