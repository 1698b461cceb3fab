// Which explanation a backward step gets: what the chain rule does going back through one forward step. The key
// of its texts in the language files' "backward" section; kinds split steps only where the chain rule differs.
#pragma once

#include "forward/step.h"

#include <string_view>

namespace attnlab {

inline constexpr std::string_view kBackwardKinds[] = {
    "logits",      // the loss's gradient enters at the logits and goes back through the output projection
    "linear",      // y = x·Wᵀ + b
    "qkv",         // Q, K or V: a linear map split into heads
    "head_norm",   // qwen3's RMSNorm of each head of Q or K
    "rotary",      // RoPE
    "scores",      // QKᵀ
    "scaled",      // ÷√D
    "scaled_by",   // ·s, the family's own scale of the scores
    "biased",      // + the position bias (ALiBi, T5)
    "position_bias",  // T5's table read at each pair's bucket: its entries collect their buckets' gradients
    "soft_cap",    // c·tanh(x/c) of the scores or the logits (Gemma 2)
    "masked",      // the mask
    "softmax",     // the attention weights
    "context",     // weights·V
    "concat",      // the heads side by side
    "residual",    // x + sublayer(x)
    "residual_multiplied",  // x + m·sublayer(x) (Granite)
    "norm",        // LayerNorm or RMSNorm
    "activation",  // ReLU, GELU, SiLU
    "gated",       // a ⊙ u
    "routing",     // a mixture's top-k choice of experts, through the chosen weights and the softmax
    "experts",     // a mixture's weighted sum of its chosen experts
    "identity",    // a stack's output when it has no final norm
    "sum",         // the embeddings added together
    "embedding",   // a row of the token table
    "embedding_multiplied",  // a row of the token table times m_emb (Granite)
    "position",    // a row of the learned position table
    "token_type",  // a row of the token-type table
};

// The backward kind of a forward step that has a backward (Step::backward).
std::string_view backward_kind(const Step& step);

}  // namespace attnlab
