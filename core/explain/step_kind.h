// Which explanation a forward-pass step gets: its kind, the key of its texts in the
// language files (assets/explanations/*.json). Kinds split steps only where the texts differ.
#pragma once

#include "config.h"

#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

// Every kind a config can produce; each language file has texts for exactly these.
inline constexpr std::string_view kExplanationKinds[] = {
    "embed_scaled", "embed", "pos_sinusoidal", "pos_learned", "input",
    "masks.src_padding", "masks.encoder_self", "masks.tgt_padding", "masks.look_ahead", "masks.decoder_self",
    "masks.cross",
    "self_attn.q", "self_attn.k", "self_attn.v", "cross_attn.q", "cross_attn.k", "cross_attn.v",
    "attn.scores", "attn.scaled", "attn.masked", "attn.weights", "attn.context", "attn.concat", "attn.out",
    "residual_post_ln", "residual_pre_ln", "norm_post_ln", "norm_pre_ln",
    "ffn.hidden", "ffn.relu", "ffn.gelu", "ffn.gelu_tanh", "ffn.out",
    "stack_output_norm", "stack_output_plain", "logits_tied", "logits", "probs",
};

// The kind of the step at `path` in the forward pass of `config`; nullopt for a path no kind covers.
std::optional<std::string> explanation_kind(const std::string& path, const ModelConfig& config);

}  // namespace attnlab
