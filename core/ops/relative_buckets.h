// T5's relative position buckets (Raffel et al. 2020; transformers' T5Attention._relative_position_bucket): no
// position is added to the embeddings; each head adds to its scores a learned number per bucket of the key's
// offset from the query, offset = key − query. Of B buckets:
//   bidirectional (the encoder): keys after the query (offset > 0) take the upper B/2 buckets, the rest the lower
//     B/2, each half by the distance n = |offset| over b = B/2 buckets;
//   unidirectional (the decoder): n = max(−offset, 0) (a later key, which the causal mask hides, is distance 0),
//     over b = B buckets.
// Within b buckets, the distances below e = b/2 each have their own bucket, n; farther ones share log-spaced
// buckets up to max_distance, and all beyond it the last:
//   bucket(n) = n                                                           n < e
//             = min(b − 1, e + ⌊log(n/e) / log(max_distance/e) · (b − e)⌋)  otherwise
// computed in float as the module does (the log of n/e in float32).
#pragma once

#include "tensor.h"

#include <cstdint>
#include <vector>

namespace attnlab {

// The bucket of offset = key − query.
int relative_position_bucket(int64_t offset, bool bidirectional, int n_buckets, int max_distance);
// (Nq·Nk) the bucket of every query i and key j, row-major: bucket(j − i).
std::vector<int> relative_bucket_map(int64_t n_queries, int64_t n_keys, bool bidirectional, int n_buckets,
                                     int max_distance);
// table (B, H), the learned bias of each bucket and head (relative_attention_bias) -> (H, Nq, Nk):
// bias[h, i, j] = table[bucket(j − i), h].
Tensor relative_bias(const Tensor& table, const std::vector<int>& buckets, int64_t n_queries, int64_t n_keys);
// Its backward: d table (B, H), each bucket's entry the sum of d_bias (H, Nq, Nk) over the pairs in that bucket.
Tensor relative_bias_backward(const Tensor& d_bias, const std::vector<int>& buckets, int64_t n_buckets);

}  // namespace attnlab
