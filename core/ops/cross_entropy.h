// The training loss: cross-entropy with label smoothing over the logits, and its gradient, in one pass.
#pragma once

#include "tensor.h"

#include <cstdint>
#include <vector>

namespace attnlab {

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
