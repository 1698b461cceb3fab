// The zoom and pan of a matrix drawn in a fixed viewport, as pure geometry (no ImGui): which cells are in view,
// where a cell lands on screen, zooming about a point and panning, each clamped so that the matrix never leaves
// the viewport while it is larger than it. Cells stay square. The view is kept as a zoom factor over the fit
// and the cell at the viewport's centre (as fractions of the matrix), so it survives a resize or a new length.
//
// Coordinates: pixels from the viewport's top-left corner, y downwards; cell (r, c) covers columns [c, c + 1) and
// rows [r, r + 1) in cell units.
#pragma once

namespace attnlab::gui {

struct MatrixZoom {
    float zoom = 1.0f;                       // pixels per cell over the fit's (1: the whole matrix in view)
    float centre_x = 0.5f, centre_y = 0.5f;  // the viewport's centre, as a fraction of the matrix's width, height
};

struct ZoomViewport {
    float width = 0.0f, height = 0.0f;  // pixels
    int rows = 0, cols = 0;             // the matrix's cells
    float max_cell = 48.0f;             // the largest a cell may be drawn, in pixels
};

// Where the view stands in pixels: `scale` pixels per cell, the cell coordinates (x, y) of the viewport's top-left.
// A matrix narrower (or shorter) than the viewport starts at its left (top) edge: x (y) is 0.
struct ZoomFrame {
    float scale = 1.0f;
    float x = 0.0f, y = 0.0f;
    // The matrix's part of the viewport, in pixels: [x0, x1) × [y0, y1).
    float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;
};

// The whole cells the viewport shows, even in part: rows [row0, row1), columns [col0, col1).
struct CellRange {
    int row0 = 0, row1 = 0, col0 = 0, col1 = 0;
    int rows() const { return row1 - row0; }
    int cols() const { return col1 - col0; }
};

float fit_scale(const ZoomViewport& vp);  // pixels per cell with the whole matrix in view
float max_zoom(const ZoomViewport& vp);   // the zoom at which a cell is max_cell pixels (at least 1)
// The zoom clamped to [1, max_zoom] and the centre to where the matrix covers the viewport.
MatrixZoom clamp_zoom(const MatrixZoom& z, const ZoomViewport& vp);
ZoomFrame zoom_frame(const MatrixZoom& z, const ZoomViewport& vp);
CellRange visible_cells(const ZoomFrame& f, const ZoomViewport& vp);
// The cell under the pixel (px, py), or false when no cell is there.
bool cell_at(const ZoomFrame& f, const ZoomViewport& vp, float px, float py, int& row, int& col);

// The zoom multiplied by `factor` (clamped), the cell under (px, py) staying under it.
MatrixZoom zoom_about(const MatrixZoom& z, const ZoomViewport& vp, float px, float py, float factor);
// The view moved with the pointer by (dx, dy) pixels: the matrix follows the drag.
MatrixZoom pan_by(const MatrixZoom& z, const ZoomViewport& vp, float dx, float dy);

}  // namespace attnlab::gui
