// The logit lens: the residual stream after each layer of the last stack, read as if it were the
// last layer's output: through the stack's final LayerNorm (when the model has one), the output
// head (BERT's transform, then the unembedding) and a softmax, giving each layer's guess of the
// next token (GPT-2) or of the masked word (BERT) at every position.
#pragma once

#include "config.h"
#include "param_names.h"
#include "result.h"
#include "stepper.h"

#include <string>
#include <vector>

namespace attnlab {

struct TokenProbability {
    int id = 0;
    float p = 0.0f;
};

struct LogitLens {
    std::vector<std::string> rows;  // "embeddings", then each layer's output path ("decoder.layers.0.residual2", ...)
    std::vector<int> positions;     // the positions asked for
    // top[row][position index][rank]: the k most probable tokens, most probable first.
    std::vector<std::vector<std::vector<TokenProbability>>> top;
};

// The output of layer `layer` of `stack`: the last residual add (pre-LN) or the last LayerNorm
// (post-LN) of the layer.
StepId layer_output(const ModelConfig& config, Stack stack, int layer);

// For `positions` of the last stack (every position when empty). Errors: the model has no output
// head, the trace has not reached the stack's last layer, a position is out of range.
Result<LogitLens> logit_lens(const Stepper& stepper, std::vector<int> positions, int k);

}  // namespace attnlab
