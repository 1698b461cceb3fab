// Padding, look-ahead, combined and user-edited masks.
#include "ops/masks.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

Tensor key_padding(const std::vector<int>& ids, int pad_id) {
    Tensor m({static_cast<int64_t>(ids.size())});
    for (size_t j = 0; j < ids.size(); ++j) m.data[j] = ids[j] == pad_id ? 0.0f : 1.0f;
    return m;
}

// Both masks are remade whole at every edit of the ids (step_rows.h), a token appended included: each cell is written
// once, a row at a time, in loops that vectorise (1,024² cells at SmolLM2-135M's shape).

Tensor look_ahead_mask(int64_t n, int64_t window) {
    Tensor m = Tensor::uninitialized({n, n});
    for (int64_t i = 0; i < n; ++i) {
        float* row = m.data.data() + i * n;
        const int64_t first = window > 0 ? std::max<int64_t>(0, i - window + 1) : 0;  // keys [first, i] allowed
        std::fill(row, row + first, 0.0f);
        std::fill(row + first, row + i + 1, 1.0f);
        std::fill(row + i + 1, row + n, 0.0f);
    }
    return m;
}

Tensor combine_masks(int64_t n_queries, const Tensor& keys, const Tensor* causal, int64_t batch) {
    assert(keys.rank() == 1 && keys.dim(0) % batch == 0);
    const int64_t n_keys = keys.dim(0) / batch;
    assert(!causal || (causal->dim(0) == n_queries && causal->dim(1) == n_keys));
    Tensor m = Tensor::uninitialized({batch * n_queries, n_keys});
    for (int64_t b = 0; b < batch; ++b) {
        const float* keep = keys.data.data() + b * n_keys;
        for (int64_t i = 0; i < n_queries; ++i) {
            float* row = m.data.data() + (b * n_queries + i) * n_keys;
            const float* tril = causal ? causal->data.data() + i * n_keys : nullptr;
            for (int64_t j = 0; j < n_keys; ++j)
                row[j] = keep[j] != 0.0f && (!tril || tril[j] != 0.0f) ? 1.0f : 0.0f;
        }
    }
    return m;
}

void apply_mask_overrides(Tensor& mask, const MaskOverrides& overrides) {
    assert(mask.rank() == 2);
    for (const auto& [cell, allowed] : overrides) {
        const auto [i, j] = cell;
        if (i < 0 || j < 0 || i >= mask.dim(0) || j >= mask.dim(1)) continue;
        mask.data[static_cast<size_t>(i * mask.dim(1) + j)] = allowed ? 1.0f : 0.0f;
    }
}

}  // namespace attnlab
