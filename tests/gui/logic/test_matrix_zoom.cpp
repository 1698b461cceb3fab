// The detail view's zoom and pan geometry: fit, zoom about the pointer down to single cells, panning clamped to
// the matrix, and the cells in view.
#include "widgets/matrix_zoom.h"

#include <catch2/catch.hpp>

using namespace attnlab::gui;

namespace {

ZoomViewport head_viewport() { return {600.0f, 500.0f, 1024, 1024, 40.0f}; }  // a 1024-token head

}  // namespace

TEST_CASE("zoom 1 fits the whole matrix, top-left aligned", "[matrix_zoom]") {
    const ZoomViewport vp = head_viewport();
    const ZoomFrame f = zoom_frame(MatrixZoom{}, vp);
    CHECK(f.scale == Approx(500.0f / 1024.0f));
    CHECK(f.x == 0.0f);
    CHECK(f.y == 0.0f);
    CHECK(f.x1 == Approx(500.0f));  // narrower than the viewport: the matrix ends before its right edge
    CHECK(f.y1 == Approx(500.0f));
    const CellRange r = visible_cells(f, vp);
    CHECK(r.rows() == 1024);
    CHECK(r.cols() == 1024);
    int row = -1, col = -1;
    CHECK_FALSE(cell_at(f, vp, 550.0f, 10.0f, row, col));  // right of the matrix: no cell
    REQUIRE(cell_at(f, vp, 499.9f, 499.9f, row, col));
    CHECK(row == 1023);
    CHECK(col == 1023);
}

TEST_CASE("zooming about the pointer keeps its cell under it, down to single cells", "[matrix_zoom]") {
    const ZoomViewport vp = head_viewport();
    const float px = 147.0f, py = 342.0f;
    // Near the fit the matrix's edges hold it in place; from 8x on, it is free to move under the pointer.
    MatrixZoom z = zoom_about(MatrixZoom{}, vp, 300.0f, 250.0f, 8.0f);
    CHECK(z.zoom == Approx(8.0f));
    int row0 = -1, col0 = -1;
    REQUIRE(cell_at(zoom_frame(z, vp), vp, px, py, row0, col0));
    for (int i = 0; i < 60; ++i) {
        z = zoom_about(z, vp, px, py, 1.25f);
        int row = -1, col = -1;
        REQUIRE(cell_at(zoom_frame(z, vp), vp, px, py, row, col));
        CHECK(row == row0);
        CHECK(col == col0);
    }
    // At the most zoom a cell is max_cell pixels: about 15 × 13 cells in view, their labels readable.
    const ZoomFrame f = zoom_frame(z, vp);
    CHECK(f.scale == Approx(vp.max_cell));
    CHECK(z.zoom == Approx(max_zoom(vp)));
    const CellRange r = visible_cells(f, vp);
    CHECK(r.cols() <= 16);
    CHECK(r.rows() <= 14);
    CHECK(r.col0 <= col0);
    CHECK(col0 < r.col1);
    CHECK(r.row0 <= row0);
    CHECK(row0 < r.row1);
    // Zooming out all the way returns to the fit.
    for (int i = 0; i < 60; ++i) z = zoom_about(z, vp, 10.0f, 10.0f, 0.8f);
    CHECK(z.zoom == Approx(1.0f));
    CHECK(zoom_frame(z, vp).x == 0.0f);
}

TEST_CASE("panning follows the drag and stops at the matrix's edges", "[matrix_zoom]") {
    const ZoomViewport vp = head_viewport();
    MatrixZoom z = zoom_about(MatrixZoom{}, vp, 300.0f, 250.0f, 16.0f);
    const ZoomFrame before = zoom_frame(z, vp);
    REQUIRE(before.x > 10.0f);
    // Dragging 80 pixels right shows cells further left: the origin moves by 80 / scale cells.
    const ZoomFrame after = zoom_frame(pan_by(z, vp, 80.0f, -40.0f), vp);
    CHECK(after.x == Approx(before.x - 80.0f / before.scale));
    CHECK(after.y == Approx(before.y + 40.0f / before.scale));
    // Far past an edge: the matrix stops at it, never leaving empty viewport behind.
    const ZoomFrame left = zoom_frame(pan_by(z, vp, 1e6f, 1e6f), vp);
    CHECK(left.x == 0.0f);
    CHECK(left.y == 0.0f);
    const ZoomFrame right = zoom_frame(pan_by(z, vp, -1e6f, -1e6f), vp);
    CHECK(right.x + vp.width / right.scale == Approx(1024.0f));
    CHECK(right.y + vp.height / right.scale == Approx(1024.0f));
    const CellRange r = visible_cells(right, vp);
    CHECK(r.col1 == 1024);
    CHECK(r.row1 == 1024);
}

TEST_CASE("a zoom out of range is clamped, and clamping twice changes nothing", "[matrix_zoom]") {
    const ZoomViewport vp = head_viewport();
    const MatrixZoom wild{1e9f, 7.0f, -3.0f};
    const MatrixZoom once = clamp_zoom(wild, vp), twice = clamp_zoom(once, vp);
    CHECK(once.zoom == Approx(max_zoom(vp)));
    CHECK(twice.zoom == Approx(once.zoom));
    CHECK(twice.centre_x == Approx(once.centre_x));
    CHECK(twice.centre_y == Approx(once.centre_y));
    CHECK(zoom_frame(once, vp).y == 0.0f);  // a centre above the matrix: its top row
    // A small matrix (the bundled model's 5 tokens) cannot zoom past max_cell: it fits at the largest cells.
    const ZoomViewport small{600.0f, 500.0f, 5, 5, 40.0f};
    CHECK(max_zoom(small) == 1.0f);
    CHECK(zoom_frame(zoom_about(MatrixZoom{}, small, 1.0f, 1.0f, 4.0f), small).scale == Approx(100.0f));
}
