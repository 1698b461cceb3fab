// A large matrix (a head's (T, T) weights at 1,024 tokens) in a fixed viewport that zooms and pans down to single
// cells: the mouse wheel zooms about the pointer, a drag with any button pans, "Fit" shows it whole. The visible
// cells are drawn from one texture of the viewport's size (max-pooled when zoomed out), re-rendered only when the
// data, the zoom or the cells in view change. Token labels of the visible rows and columns sit beside it (thinned
// when the cells are small), the values print in the cells once they fit, and hover names the query, the key and
// the exact value. The geometry is widgets/matrix_zoom.h.
#pragma once

#include "panels/panel_context.h"
#include "widgets/matrix_zoom.h"

#include <string>
#include <vector>

namespace attnlab::gui {

struct ZoomMatrixPlot {
    std::string key;                // the texture's key
    const float* values = nullptr;  // (rows, cols), row-major
    int rows = 0, cols = 0;
    uint64_t version = 0;
    const float* mask = nullptr;  // optional (rows, cols): 0 = masked
    uint64_t mask_version = 0;
    Colormap colormap = Colormap::sequential;
    bool fixed_range = false;  // lo/hi below, else the data's range
    float lo = 0.0f, hi = 1.0f;
    const std::vector<std::string>* row_labels = nullptr;
    const std::vector<std::string>* col_labels = nullptr;  // nullptr: the columns are numbered (Q, K, V: dimensions)
    const char* caption = nullptr;                         // under the colour bar
    float max_cell = 0.0f;                                 // the largest a cell is drawn (0: 3.2 em)
    int mark_row = -1, mark_col = -1;                      // the pinned cell, outlined
    bool hover_tooltip = true;                             // false: the caller writes the hovered cell's tooltip
};

struct ZoomMatrixHit {
    int row = -1, col = -1;  // the hovered cell, or -1
    bool clicked = false;    // a left click without a drag
};

// Draws the plot in the space left (less a line for the colour bar); `zoom` is the view's state, changed by the
// wheel, a drag and "Fit".
ZoomMatrixHit draw_zoom_matrix(PanelContext& ctx, const ZoomMatrixPlot& plot, MatrixZoom& zoom);

}  // namespace attnlab::gui
