// How large the masks view draws a mask, as pure geometry (no ImGui): the cell size that fits a room, or none when
// the mask cannot be drawn whole at kMinMaskCell (a 992-token prompt's (T, T) mask: the view then shows it in a
// zoomable viewport, fitted whole); and a padding mask's one row as a strip of runs, every run of kept or padded
// keys at least a pixel wide, so that one <pad> among a thousand keys still shows.
#pragma once

#include <vector>

namespace attnlab::gui {

inline constexpr float kMinMaskCell = 2.0f;  // pixels: smaller cells lose the grid, and a flipped cell is a speck

// Whole pixels a cell for (rows, cols) cells in width × height pixels, at most max_cell; 0 when that is less
// than kMinMaskCell.
float mask_cell(int rows, int cols, float width, float height, float max_cell);

// A run of equal keep_j values, [x0, x1) in pixels from the strip's left edge.
struct StripRun {
    int first = 0, end = 0;  // keys [first, end)
    float x0 = 0.0f, x1 = 0.0f;
    bool kept = true;
};

// keep (n,) drawn in `width` pixels: runs left to right, each at least a pixel wide (a narrow one takes its pixel
// from its wider neighbours), covering [0, width) exactly.
std::vector<StripRun> strip_runs(const float* keep, int n, float width);

// The key under x pixels from the strip's left edge, or -1.
int strip_key_at(const std::vector<StripRun>& runs, float x);

}  // namespace attnlab::gui
