// Attention masks as 0/1 matrices (1 = the query may attend to the key), paper §3.2.3.
#pragma once

#include "tensor.h"

#include <map>
#include <utility>
#include <vector>

namespace attnlab {

using MaskOverrides = std::map<std::pair<int, int>, bool>;  // (query row, key column) -> allowed

Tensor key_padding(const std::vector<int>& ids, int pad_id);  // (N,): 0 where ids[j] == pad_id
// (T, T): tril, 1 where key j ≤ query i; with a sliding window W > 0 (Mistral's), only where i − W < j ≤ i.
Tensor look_ahead_mask(int64_t n, int64_t window = 0);
// (Tq, Tk): row i allows key j when keys(j) is 1 and, if given, causal(i, j) is 1.
Tensor combine_masks(int64_t n_queries, const Tensor& keys, const Tensor* causal);
// Sets the user's cells; cells outside the matrix are ignored (the sequence may have shrunk).
void apply_mask_overrides(Tensor& mask, const MaskOverrides& overrides);

}  // namespace attnlab
