// A matrix shrunk to fewer cells by max-pooling, so that one sharp cell survives a thumbnail: each output cell
// holds the largest of the input cells it covers (the one of largest magnitude, sign kept, for a diverging
// colormap), never an average. Pure arithmetic, no GL: the heatmap renderer uploads its result.
#pragma once

#include <cstdint>
#include <vector>

namespace attnlab::gui {

// What to keep of the cells one output cell covers.
enum class PoolKind {
    largest,      // the largest value (probabilities, norms: a sequential colormap)
    largest_abs,  // the value of largest magnitude, its sign kept (signed values: a diverging colormap)
};

// A window into a row-major matrix: rows × cols cells, row r starting at values + r · stride.
struct MatrixWindow {
    const float* values = nullptr;
    int rows = 0, cols = 0;
    int64_t stride = 0;           // floats from one row to the next (≥ cols)
    const float* mask = nullptr;  // optional, same layout and stride: 0 = masked
};

struct PooledMatrix {
    int rows = 0, cols = 0;
    std::vector<float> values;  // (rows, cols): NaN where every covered cell was masked or not finite
    std::vector<uint8_t> mask;  // (rows, cols): 255 where some covered cell was shown, 0 elsewhere
};

// The input cells output cell i of n covers along an axis of `cells`: [first, end), at least one. The same cut as
// heatmap.frag's pixel → cell (i · cells / n), so with n ≤ cells every input cell lands in exactly one output cell.
struct PoolSpan {
    int first = 0, end = 0;
};
PoolSpan pool_span(int i, int n, int cells);

// `in` pooled to out_rows × out_cols (each at most the input's, at least 1). Masked and non-finite cells never
// win while a shown cell is covered. Rows are split between threads (core/parallel.h).
PooledMatrix max_pool(const MatrixWindow& in, int out_rows, int out_cols, PoolKind kind);

}  // namespace attnlab::gui
