// Which explanation a forward-pass step gets: its kind, the key of its texts in the
// language files (assets/explanations/*.json). The kind is read from the step's typed record
// (forward/step_id.h) and the config; kinds split steps only where the texts differ.
#pragma once

#include "config.h"
#include "forward/step_id.h"

#include <string>
#include <string_view>

namespace attnlab {

// Every kind a config can produce; each language file has texts for exactly these.
inline constexpr std::string_view kExplanationKinds[] = {
    "embed_scaled",
    "embed",
    "embed_rotary",
    "pos_sinusoidal",
    "pos_sinusoidal_halves",
    "pos_learned",
    "token_type",
    "input",
    "input_token_type",
    "embed_norm",
    "mask.src_padding",
    "mask.encoder_self",
    "mask.tgt_padding",
    "mask.tgt_padding_start",
    "mask.look_ahead",
    "mask.look_ahead_window",
    "mask.decoder_self",
    "mask.decoder_self_window",
    "mask.decoder_self_local",
    "mask.encoder_self_local",
    "mask.cross",
    "self_attn.q",
    "self_attn.k",
    "self_attn.v",
    "self_attn.k_grouped",
    "self_attn.v_grouped",
    "cross_attn.q",
    "cross_attn.k",
    "cross_attn.v",
    "attn.q_norm",
    "attn.k_norm",
    "attn.q_norm_plus_one",
    "attn.k_norm_plus_one",
    "attn.q_norm_across",
    "attn.k_norm_across",
    "attn.q_rot",
    "attn.k_rot",
    "attn.scores",
    "attn.scores_nope",
    "attn.scaled",
    "attn.scaled_by",
    "attn.capped",
    "attn.masked",
    "attn.weights",
    "attn.context",
    "attn.concat",
    "attn.out",
    "residual_post_ln",
    "residual_pre_ln",
    "residual_post_rms",
    "residual_pre_rms",
    "norm_post_ln",
    "norm_pre_rms",
    "norm_pre_rms_plus_one",
    "post_norm",
    "residual_pre_post_norm",
    "norm_post_rms",
    "norm_pre_ln",
    "ffn.hidden",
    "ffn.relu",
    "ffn.gelu",
    "ffn.gelu_tanh",
    "ffn.silu",
    "ffn.out",
    "ffn.gate",
    "ffn.up",
    "ffn.gated",
    "ffn.down",
    "ffn.router",
    "ffn.routing",
    "ffn.routing_normalized",
    "ffn.experts",
    "stack_output_norm",
    "stack_output_rms",
    "stack_output_rms_plus_one",
    "stack_output_plain",
    "mlm_head.transform",
    "mlm_head.relu",
    "mlm_head.gelu",
    "mlm_head.gelu_tanh",
    "mlm_head.silu",
    "mlm_head.norm",
    "logits_tied",
    "logits",
    "capped_logits",
    "probs",
    "probs_masked",
};

// The kind of a step of the forward pass of `config`, from its record. Every record has one.
std::string explanation_kind(const StepRecord& record, const ModelConfig& config);

}  // namespace attnlab
