// Row-wise softmax that tolerates −∞ (masked) entries, and its backward.
#pragma once

#include "tensor.h"

#include <vector>

namespace attnlab {

// softmax over the last dim. A row whose entries are all −∞ becomes all zeros (never NaN),
// and its row index (counting rows of the (N, last) view) is appended to fully_masked_rows.
Tensor softmax_rows(const Tensor& x, std::vector<int64_t>* fully_masked_rows = nullptr);
// The same, written over x (the same numbers, without a new array).
void softmax_rows_in_place(Tensor& x, std::vector<int64_t>* fully_masked_rows = nullptr);

// y = softmax_rows(x) (rank ≥ 1, over the last dim), dy same shape -> dx = y ⊙ (dy − Σ_j dy·y).
// Rows of y that are all zero (fully masked) give zero gradient.
Tensor softmax_rows_backward(const Tensor& y, const Tensor& dy);

}  // namespace attnlab
