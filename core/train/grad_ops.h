// Backward passes of the primitive ops, each the pair of a *_forward in core/ops.
// Each returns dL/d(input) from dL/d(output) and ADDS parameter gradients into the given
// accumulators (null = not wanted), so a parameter used twice (tied embeddings) sums.
// Shapes: N rows (tokens), C features, V vocabulary; Tq queries, Tk keys, D per-head width.
#pragma once

#include "config.h"
#include "tensor.h"

#include <cstdint>

namespace attnlab {

// y = x·W[rows]ᵀ + b[rows] (linear_forward with row_begin, n_out = dy's width).
// x (N, in), weight (·, in), dy (N, n_out) -> dx (N, in);
// dweight (same shape as weight) rows [row_begin, row_begin + n_out) += dyᵀ·x; dbias[rows] += Σ_rows dy.
Tensor linear_backward(const Tensor& x, const Tensor& weight, const Tensor& dy, Tensor* dweight, Tensor* dbias,
                       int64_t row_begin = 0);

// LayerNorm over the last dim (biased variance, as layer_norm_forward).
// x (N, C), gain (C), dy (N, C) -> dx (N, C); dgain += Σ dy·x̂, dbias += Σ dy.
Tensor layer_norm_backward(const Tensor& x, const Tensor& gain, float eps, const Tensor& dy, Tensor* dgain,
                           Tensor* dbias);

// Elementwise: h is the activation's input (pre-activation), dy (same shape) -> dh.
// ReLU'(0) = 0, as PyTorch. GELU (erf) and GELU-tanh use their exact derivatives.
Tensor activation_backward(const Tensor& h, const Tensor& dy, Activation kind);

// y = softmax_rows(x) (rank ≥ 1, over the last dim), dy same shape -> dx = y ⊙ (dy − Σ_j dy·y).
// Rows of y that are all zero (fully masked) give zero gradient.
Tensor softmax_rows_backward(const Tensor& y, const Tensor& dy);

// Cross-entropy with label smoothing ε, as torch.nn.functional.cross_entropy(logits, targets,
// ignore_index=pad_id, label_smoothing=ε, reduction="mean"): the target distribution is
// (1 − ε)·one_hot + ε/V over all V classes; rows whose target is pad_id are ignored.
// logits (N, V), targets N ids. loss = mean over the counted rows (0 when none);
// dlogits (N, V) = (softmax − target distribution) / n_counted, zero on ignored rows.
struct CrossEntropyResult {
    double loss = 0.0;
    int64_t n_counted = 0;
    Tensor dlogits;
};
CrossEntropyResult cross_entropy_forward_backward(const Tensor& logits, const std::vector<int>& targets, int pad_id,
                                                  float label_smoothing);

}  // namespace attnlab
