// Data parallelism for one training step: the batch's sequences are split into n_threads parts, each part's
// loss and gradients are computed on its own thread, and the results are merged as if the
// whole batch had been one (weighted by each part's token count). Deterministic: the split and
// the merge order are fixed, and part i's dropout seed is derived from options.dropout_seed and i.
// n_threads ≤ 1 (or a single pair): the whole batch on the calling thread, and no std::thread is
// started, so that a platform without threads (the web page) trains with threads = 1.
#pragma once

#include "train/transformer_grad.h"

#include <vector>

namespace attnlab {

Result<LossAndGradients> loss_and_gradients_parallel(const ModelConfig& config, const Weights& weights,
                                                     const Batch& batch, const TrainOptions& options, int n_threads);

}  // namespace attnlab
