// A matrix drawn large with its tokens: query labels on the left, key labels above (placed by
// widgets/label_layout.h: flat, turned, thinned or cut to fit), the numbers in the cells when the cells are wide enough, and one cell outlined. The attention
// view's enlarged head (the grid's hover) and its stage player draw with it.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace attnlab::gui {

struct TokenMatrix {
    ImTextureID texture = nullptr;  // the (rows, cols) heatmap
    int rows = 0, cols = 0;
    float cell = 16.0f;  // pixels a side
    const std::vector<std::string>* row_labels = nullptr;
    const std::vector<std::string>* col_labels = nullptr;
    const float* values = nullptr;  // (rows, cols), row-major: printed in the cells when they fit (1 or 2 decimals)
    int exponent = 0;               // ... as multiples of 10^exponent (widgets/value_units.h: a gradient's)
    int mark_row = -1, mark_col = -1;
    float label_max = 0.0f;  // the widest a label may be, in pixels (0: 6 em)
};

// The room the matrix takes with its labels.
ImVec2 token_matrix_size(const TokenMatrix& m);
// Draws it at the cursor and moves the cursor past it.
void draw_token_matrix(const TokenMatrix& m);

// A cell's value as it is printed: `decimals` decimals, fewer for large values, "−∞" for a masked score.
std::string cell_number(float v, int decimals);

}  // namespace attnlab::gui
