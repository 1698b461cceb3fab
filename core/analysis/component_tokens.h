// What one component writes into the residual stream, read as tokens: the vector a head (or an FFN) adds at one
// position, (C,), read through the stack's final norm frozen at this run's scale (LayerNorm: centred, divided by
// this run's σ, ⊙ γ, without β; RMSNorm: divided by this run's rms, ⊙ γ) and the unembedding without its bias:
// (V,) direct logits. The tokens with the largest of them are the ones the component pushes up, the smallest the
// ones it pushes down, as Meta's LLM Transparency Tool shows them. A head's vector at query q is
// Σ_j w[h, q, j] · V[g(h), j] · W_O[:, h·D:(h+1)·D]ᵀ, so its direct logit for token A is the sum over source positions
// of its shares in attribute_logits(logit:A@q) (analysis/logit_attribution.h) for a model whose only norm after
// the component is the final one (pre-LN). Later layers' norms (post-LN) are not on this path: it is the view
// through the end of the model alone.
// Not supported (one-line error): BERT's MLM head transform (not linear), a batch, a model without an output head.
#pragma once

#include "analysis/token_ranking.h"
#include "forward/step_id.h"
#include "result.h"
#include "stepper.h"

#include <vector>

namespace attnlab {

// A head (site, head) or an FFN (stack, layer) of the model.
struct ComponentRef {
    bool ffn = false;
    AttentionSite site;  // a head's attention
    int head = 0;
    Stack stack = Stack::decoder;  // an FFN's stack
    int layer = 0;                 // an FFN's layer
};

struct ComponentTokens {
    std::vector<TokenScore> up;    // the k largest direct logits, largest first
    std::vector<TokenScore> down;  // the k smallest, smallest first
};

// For a stepper that has run its logits; `position` is a row of the logits (the query). Errors: as above, the
// position or the component out of range, the steps not computed.
Result<ComponentTokens> component_tokens(const Stepper& stepper, const ComponentRef& component, int64_t position,
                                         int k);

}  // namespace attnlab
