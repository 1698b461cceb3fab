// A mixture of experts' routing: each token's top-k experts by the softmax of its router logits, with their
// weights (renormalised over the chosen when asked), 0 for the others; and its backward.
#pragma once

#include "tensor.h"

#include <set>
#include <vector>

namespace attnlab {

// The k experts of one row with the largest logits, largest first (the lower index first on a tie).
std::vector<int> top_k_experts(const float* logits, int n_experts, int k);

// logits (N, E) -> routing (N, E): p = softmax(logits row); w_e = p_e (÷ Σ_chosen p when normalize) for the k
// chosen experts, 0 elsewhere. An ablated expert's weight is 0 even where it is chosen (the others keep theirs).
Tensor route_top_k(const Tensor& logits, int k, bool normalize, const std::set<int>& ablated);
// dL/d(routing) (N, E) -> dL/d(logits) (N, E): through the chosen, unablated weights only (the choice itself is
// piecewise constant), then through the softmax.
Tensor route_top_k_backward(const Tensor& logits, int k, bool normalize, const std::set<int>& ablated,
                            const Tensor& d_routing);

}  // namespace attnlab
