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
// (B·Tq, Tk) from keys (B·Tk,): row b·Tq + i allows key j when keys(b·Tk + j) is 1 and, if given, causal(i, j)
// (Tq, Tk) is 1. One sequence (B = 1): (Tq, Tk).
Tensor combine_masks(int64_t n_queries, const Tensor& keys, const Tensor* causal, int64_t batch = 1);
// Sets the user's cells; cells outside the matrix are ignored (the sequence may have shrunk).
void apply_mask_overrides(Tensor& mask, const MaskOverrides& overrides);

}  // namespace attnlab
