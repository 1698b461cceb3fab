// The encoder-decoder forward pass over a padded batch, and its backward pass.
// Same arithmetic as the stepper's forward graph (core/forward), batched for training:
// linear layers run on all B·S (or B·T) rows at once, attention per pair and head.
// Every switch of ModelConfig is honoured: post-LN/pre-LN, ReLU/GELU/GELU-tanh, sinusoidal,
// learned or no PE, √C scaling, tied embeddings, final norms, an optional generator.bias.
#pragma once

#include "config.h"
#include "result.h"
#include "train/batch.h"
#include "train/gradients.h"
#include "train/train_options.h"
#include "weights.h"

#include <cstdint>

namespace attnlab {

struct LossAndGradients {
    double loss = 0.0;      // mean smoothed cross-entropy over non-pad target tokens, + the disagreement penalty
    int64_t n_tokens = 0;   // tokens counted
    int64_t n_correct = 0;  // tokens whose argmax equals the target (teacher forcing)
    Gradients grads;        // dloss/dθ for every parameter
};

// What every pass over a user's batch checks first: a config with an output head, a non-empty batch whose id
// arrays match its B, S and T (an encoder-only model's: T = 0 and tgt_out (B, S), batch.h), lengths within max_len
// and ids within the vocabularies.
Status check_batch(const ModelConfig& config, const Batch& batch);

// One forward and backward pass, for every arch: the loss over the logits of the B·T target rows (B·S source rows
// for an encoder-only model). A batch check_batch refuses returns its error.
Result<LossAndGradients> loss_and_gradients(const ModelConfig& config, const Weights& weights, const Batch& batch,
                                            const TrainOptions& options);

// Inference over a batch (no dropout): logits (B·T, V) for every target position ((B·S, V): every source position of
// an encoder-only model).
Result<Tensor> batch_logits(const ModelConfig& config, const Weights& weights, const Batch& batch);

}  // namespace attnlab
