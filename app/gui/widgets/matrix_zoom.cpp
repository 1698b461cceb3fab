// Zoom and pan geometry of a matrix in a viewport.
#include "widgets/matrix_zoom.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

// The top-left cell coordinate along one axis of `cells` cells, `view` cells wide in the viewport, for a centre
// at fraction `centre`: 0 when the matrix fits, else within [0, cells − view].
float axis_origin(float centre, int cells, float view) {
    if (static_cast<float>(cells) <= view) return 0.0f;
    return std::clamp(centre * static_cast<float>(cells) - 0.5f * view, 0.0f, static_cast<float>(cells) - view);
}

// The centre fraction that axis_origin turns back into `origin`.
float axis_centre(float origin, int cells, float view) {
    return cells > 0 ? (origin + 0.5f * view) / static_cast<float>(cells) : 0.5f;
}

}  // namespace

float fit_scale(const ZoomViewport& vp) {
    if (vp.rows <= 0 || vp.cols <= 0 || vp.width <= 0.0f || vp.height <= 0.0f) return 1.0f;
    return std::min(vp.width / static_cast<float>(vp.cols), vp.height / static_cast<float>(vp.rows));
}

float max_zoom(const ZoomViewport& vp) { return std::max(1.0f, vp.max_cell / fit_scale(vp)); }

ZoomFrame zoom_frame(const MatrixZoom& z, const ZoomViewport& vp) {
    ZoomFrame f;
    const float zoom = std::clamp(std::isfinite(z.zoom) ? z.zoom : 1.0f, 1.0f, max_zoom(vp));
    f.scale = zoom * fit_scale(vp);
    const float view_w = vp.width / f.scale, view_h = vp.height / f.scale;  // in cells
    f.x = axis_origin(std::isfinite(z.centre_x) ? z.centre_x : 0.5f, vp.cols, view_w);
    f.y = axis_origin(std::isfinite(z.centre_y) ? z.centre_y : 0.5f, vp.rows, view_h);
    f.x0 = 0.0f, f.y0 = 0.0f;
    f.x1 = std::min(vp.width, (static_cast<float>(vp.cols) - f.x) * f.scale);
    f.y1 = std::min(vp.height, (static_cast<float>(vp.rows) - f.y) * f.scale);
    return f;
}

MatrixZoom clamp_zoom(const MatrixZoom& z, const ZoomViewport& vp) {
    const ZoomFrame f = zoom_frame(z, vp);
    MatrixZoom out;
    out.zoom = f.scale / fit_scale(vp);
    out.centre_x = axis_centre(f.x, vp.cols, vp.width / f.scale);
    out.centre_y = axis_centre(f.y, vp.rows, vp.height / f.scale);
    return out;
}

CellRange visible_cells(const ZoomFrame& f, const ZoomViewport& vp) {
    CellRange r;
    r.col0 = std::clamp(static_cast<int>(std::floor(f.x)), 0, vp.cols);
    r.row0 = std::clamp(static_cast<int>(std::floor(f.y)), 0, vp.rows);
    r.col1 = std::clamp(static_cast<int>(std::ceil(f.x + f.x1 / f.scale)), r.col0, vp.cols);
    r.row1 = std::clamp(static_cast<int>(std::ceil(f.y + f.y1 / f.scale)), r.row0, vp.rows);
    return r;
}

bool cell_at(const ZoomFrame& f, const ZoomViewport& vp, float px, float py, int& row, int& col) {
    if (px < f.x0 || px >= f.x1 || py < f.y0 || py >= f.y1) return false;
    col = std::clamp(static_cast<int>(std::floor(f.x + px / f.scale)), 0, vp.cols - 1);
    row = std::clamp(static_cast<int>(std::floor(f.y + py / f.scale)), 0, vp.rows - 1);
    return true;
}

MatrixZoom zoom_about(const MatrixZoom& z, const ZoomViewport& vp, float px, float py, float factor) {
    const ZoomFrame f = zoom_frame(z, vp);
    const float cx = f.x + px / f.scale, cy = f.y + py / f.scale;  // the cell point under the pointer
    const float scale = std::clamp(f.scale * factor, fit_scale(vp), max_zoom(vp) * fit_scale(vp));
    // The new top-left keeps (cx, cy) at (px, py); clamp_zoom then keeps the matrix over the viewport.
    const float x = cx - px / scale, y = cy - py / scale;
    MatrixZoom out;
    out.zoom = scale / fit_scale(vp);
    out.centre_x = axis_centre(x, vp.cols, vp.width / scale);
    out.centre_y = axis_centre(y, vp.rows, vp.height / scale);
    return clamp_zoom(out, vp);
}

MatrixZoom pan_by(const MatrixZoom& z, const ZoomViewport& vp, float dx, float dy) {
    const ZoomFrame f = zoom_frame(z, vp);
    MatrixZoom out = clamp_zoom(z, vp);
    out.centre_x = axis_centre(f.x - dx / f.scale, vp.cols, vp.width / f.scale);
    out.centre_y = axis_centre(f.y - dy / f.scale, vp.rows, vp.height / f.scale);
    return clamp_zoom(out, vp);
}

}  // namespace attnlab::gui
