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

Tensor look_ahead_mask(int64_t n, int64_t window) {
    Tensor m({n, n});
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = window > 0 ? std::max<int64_t>(0, i - window + 1) : 0; j <= i; ++j)
            m.data[static_cast<size_t>(i * n + j)] = 1.0f;
    return m;
}

Tensor combine_masks(int64_t n_queries, const Tensor& keys, const Tensor* causal, int64_t batch) {
    assert(keys.rank() == 1 && keys.dim(0) % batch == 0);
    const int64_t n_keys = keys.dim(0) / batch;
    assert(!causal || (causal->dim(0) == n_queries && causal->dim(1) == n_keys));
    Tensor m({batch * n_queries, n_keys});
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < n_queries; ++i)
            for (int64_t j = 0; j < n_keys; ++j) {
                const size_t cell = static_cast<size_t>(i * n_keys + j);
                const bool allowed = keys.data[static_cast<size_t>(b * n_keys + j)] != 0.0f &&
                                     (!causal || causal->data[cell] != 0.0f);
                m.data[static_cast<size_t>(b * n_queries * n_keys) + cell] = allowed ? 1.0f : 0.0f;
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
