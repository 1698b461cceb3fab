// The playground's small matrices, every number written in its cell: read-only tables coloured
// by value (probabilities on the sequential ramp, signed values on the diverging one, the
// heatmaps' colours), tables typed into cell by cell, and mask tables whose cells flip on click.
#pragma once

#include "tensor.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace attnlab::gui {

enum class CellScale { signed_values, probabilities };

struct CellGrid {
    const char* id = "";
    const std::vector<std::string>* row_labels = nullptr;  // one per row
    const std::vector<std::string>* col_labels = nullptr;  // one per column
    float cell_w = 0.0f;                                   // pixels
    int focus_row = -1, focus_col = -1;                    // outlined: a cell, or a whole row when focus_col is −1
};

struct CellHit {
    int row = -1, col = -1;  // the hovered cell, or −1
    bool clicked = false;
};

// values (R, K) with their numbers; −∞ cells hatched grey.
CellHit value_table(const CellGrid& grid, const Mat& values, CellScale scale);
// values (R, K), one number field per cell framed in its value's colour; true when one changed.
// Typed values are kept within ±kHandMaxAbs, and anything not finite becomes 0.
bool input_table(const CellGrid& grid, Mat& values);
// mask (T, T) of 1 (may attend) and 0 (blocked); a click flips a cell. True when one flipped.
bool mask_table(const CellGrid& grid, Mat& mask);

// The width a grid takes: its row labels and its cells.
float grid_width(const CellGrid& grid, int cols);

// A cell wide enough for the widest number of every matrix given, and at least min_em em.
float cell_width(const std::vector<const Mat*>& matrices, float min_em);

std::string subscript(int n);  // "₁" for 1; n from 0 to 9
// prefix with subscripts 1 … n: "x₁", "x₂", …
std::vector<std::string> indexed_labels(const char* prefix, int n);
std::vector<std::string> number_labels(int n);  // "1" … "n"

}  // namespace attnlab::gui
