// Max-pooling a matrix (or a window of one) to a thumbnail's cells.
#include "gl/max_pool.h"

#include "parallel.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

PoolSpan pool_span(int i, int n, int cells) {
    const auto at = [&](int k) { return static_cast<int>(static_cast<int64_t>(k) * cells / n); };
    const int first = at(i);
    return {first, std::max(first + 1, at(i + 1))};
}

PooledMatrix max_pool(const MatrixWindow& in, int out_rows, int out_cols, PoolKind kind) {
    PooledMatrix out;
    out.rows = std::clamp(out_rows, 1, std::max(1, in.rows));
    out.cols = std::clamp(out_cols, 1, std::max(1, in.cols));
    const size_t n = static_cast<size_t>(out.rows) * out.cols;
    out.values.assign(n, NAN);
    out.mask.assign(n, 0);
    if (!in.values || in.rows <= 0 || in.cols <= 0) return out;
    const int64_t stride = std::max<int64_t>(in.stride, in.cols);
    // Column spans once for every row.
    std::vector<PoolSpan> col_spans(static_cast<size_t>(out.cols));
    for (int j = 0; j < out.cols; ++j) col_spans[static_cast<size_t>(j)] = pool_span(j, out.cols, in.cols);
    parallel_for(0, out.rows, 1, [&](int64_t i0, int64_t i1) {
        // Per output column: the best value so far (by magnitude for largest_abs) and whether any cell was shown.
        std::vector<float> best(static_cast<size_t>(out.cols)), key(static_cast<size_t>(out.cols));
        std::vector<uint8_t> shown(static_cast<size_t>(out.cols));
        for (int64_t i = i0; i < i1; ++i) {
            std::fill(best.begin(), best.end(), NAN);
            std::fill(key.begin(), key.end(), -INFINITY);
            std::fill(shown.begin(), shown.end(), 0);
            const PoolSpan rs = pool_span(static_cast<int>(i), out.rows, in.rows);
            for (int r = rs.first; r < rs.end; ++r) {
                const float* row = in.values + r * stride;
                const float* mask_row = in.mask ? in.mask + r * stride : nullptr;
                for (int j = 0; j < out.cols; ++j) {
                    const PoolSpan cs = col_spans[static_cast<size_t>(j)];
                    float b = best[static_cast<size_t>(j)], k = key[static_cast<size_t>(j)];
                    for (int c = cs.first; c < cs.end; ++c) {
                        const float v = row[c];
                        if (!std::isfinite(v) || (mask_row && mask_row[c] == 0.0f)) continue;
                        const float kv = kind == PoolKind::largest ? v : std::abs(v);
                        if (kv > k || std::isnan(b)) k = kv, b = v;
                    }
                    best[static_cast<size_t>(j)] = b, key[static_cast<size_t>(j)] = k;
                }
            }
            for (int j = 0; j < out.cols; ++j)
                shown[static_cast<size_t>(j)] = std::isnan(best[static_cast<size_t>(j)]) ? 0 : 255;
            std::copy(best.begin(), best.end(), out.values.begin() + i * out.cols);
            std::copy(shown.begin(), shown.end(), out.mask.begin() + i * out.cols);
        }
    });
    return out;
}

}  // namespace attnlab::gui
