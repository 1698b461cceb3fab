// T5's relative position buckets and the learned bias they index.
#include "ops/relative_buckets.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace attnlab {

int relative_position_bucket(int64_t offset, bool bidirectional, int n_buckets, int max_distance) {
    int base = 0;
    int64_t n = 0;
    if (bidirectional) {
        n_buckets /= 2;
        if (offset > 0) base = n_buckets;
        n = offset < 0 ? -offset : offset;
    } else {
        n = offset < 0 ? -offset : 0;
    }
    const int exact = n_buckets / 2;
    if (n < exact) return base + static_cast<int>(n);
    // As the module rounds: log(n / e) in float32, ÷ log(max_distance / e) and · (b − e) in float, truncated.
    const float ratio = static_cast<float>(n) / static_cast<float>(exact);
    const auto log_span = static_cast<float>(std::log(static_cast<double>(max_distance) / exact));
    const float steps = std::log(ratio) / log_span * static_cast<float>(n_buckets - exact);
    const auto large = static_cast<int64_t>(exact) + static_cast<int64_t>(steps);
    return base + static_cast<int>(std::min<int64_t>(large, n_buckets - 1));
}

std::vector<int> relative_bucket_map(int64_t n_queries, int64_t n_keys, bool bidirectional, int n_buckets,
                                     int max_distance) {
    // One bucket per offset j − i ∈ [−(Nq − 1), Nk − 1], at by_offset[offset + Nq − 1].
    std::vector<int> by_offset(static_cast<size_t>(std::max<int64_t>(n_queries + n_keys - 1, 0)));
    for (int64_t o = 0; o < static_cast<int64_t>(by_offset.size()); ++o)
        by_offset[static_cast<size_t>(o)] =
            relative_position_bucket(o - (n_queries - 1), bidirectional, n_buckets, max_distance);
    std::vector<int> out(static_cast<size_t>(n_queries * n_keys));
    for (int64_t i = 0; i < n_queries; ++i)
        for (int64_t j = 0; j < n_keys; ++j)
            out[static_cast<size_t>(i * n_keys + j)] = by_offset[static_cast<size_t>(j - i + n_queries - 1)];
    return out;
}

Tensor relative_bias(const Tensor& table, const std::vector<int>& buckets, int64_t n_queries, int64_t n_keys) {
    assert(table.rank() == 2 && static_cast<int64_t>(buckets.size()) == n_queries * n_keys);
    const int64_t H = table.dim(1), pairs = n_queries * n_keys;
    Tensor out({H, n_queries, n_keys});
    for (int64_t h = 0; h < H; ++h)
        for (int64_t p = 0; p < pairs; ++p)
            out.data[static_cast<size_t>(h * pairs + p)] =
                table.data[static_cast<size_t>(buckets[static_cast<size_t>(p)] * H + h)];
    return out;
}

Tensor relative_bias_backward(const Tensor& d_bias, const std::vector<int>& buckets, int64_t n_buckets) {
    assert(d_bias.rank() == 3);
    const int64_t H = d_bias.dim(0), pairs = d_bias.dim(1) * d_bias.dim(2);
    assert(static_cast<int64_t>(buckets.size()) == pairs);
    Tensor d_table({n_buckets, H});
    for (int64_t h = 0; h < H; ++h)
        for (int64_t p = 0; p < pairs; ++p)
            d_table.data[static_cast<size_t>(buckets[static_cast<size_t>(p)] * H + h)] +=
                d_bias.data[static_cast<size_t>(h * pairs + p)];
    return d_table;
}

}  // namespace attnlab
