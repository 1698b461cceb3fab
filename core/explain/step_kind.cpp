// Step record + config -> explanation kind: one case per StepKind, so a new kind of step
// cannot go unexplained without the compiler saying so.
#include "explain/step_kind.h"

#include "param_names.h"

#include <cassert>

namespace attnlab {

namespace {

// The kind of a stage of a multi-head attention: Q, K, V differ between self- and
// cross-attention (where they come from); the later stages read the same either way.
// K and V of grouped-query attention (fewer heads than Q) have their own texts.
const char* attention_kind(AttentionUse use, AttentionStage stage, bool grouped) {
    const bool cross = use == AttentionUse::cross;
    switch (stage) {
        case AttentionStage::q: return cross ? "cross_attn.q" : "self_attn.q";
        case AttentionStage::k: return cross ? "cross_attn.k" : grouped ? "self_attn.k_grouped" : "self_attn.k";
        case AttentionStage::v: return cross ? "cross_attn.v" : grouped ? "self_attn.v_grouped" : "self_attn.v";
        case AttentionStage::q_norm: return "attn.q_norm";
        case AttentionStage::k_norm: return "attn.k_norm";
        case AttentionStage::q_rot: return "attn.q_rot";
        case AttentionStage::k_rot: return "attn.k_rot";
        case AttentionStage::scores: return "attn.scores";
        case AttentionStage::scaled: return "attn.scaled";
        case AttentionStage::masked: return "attn.masked";
        case AttentionStage::weights: return "attn.weights";
        case AttentionStage::context: return "attn.context";
        case AttentionStage::concat: return "attn.concat";
        case AttentionStage::out: return "attn.out";
    }
    assert(false && "every attention stage has a kind");
    return "";
}

const char* mask_kind(AttentionUse use) {
    switch (use) {
        case AttentionUse::encoder_self: return "mask.encoder_self";
        case AttentionUse::decoder_self: return "mask.decoder_self";
        case AttentionUse::cross: return "mask.cross";
    }
    assert(false && "every attention use has a mask");
    return "";
}

// "ffn.gelu", "mlm_head.relu", …: an activation's texts, in the FFN or in BERT's MLM head.
std::string activation_kind(const char* where, Activation activation) {
    switch (activation) {
        case Activation::relu: return std::string(where) + ".relu";
        case Activation::gelu: return std::string(where) + ".gelu";
        case Activation::gelu_tanh: return std::string(where) + ".gelu_tanh";
        case Activation::silu: return std::string(where) + ".silu";
    }
    assert(false && "every activation has a kind");
    return "";
}

std::string ffn_kind(FfnPart part, Activation activation, bool gated) {
    switch (part) {
        case FfnPart::hidden: return "ffn.hidden";
        case FfnPart::gate: return "ffn.gate";
        case FfnPart::activation: return activation_kind("ffn", activation);
        case FfnPart::up: return "ffn.up";
        case FfnPart::gated: return "ffn.gated";
        case FfnPart::out: return gated ? "ffn.down" : "ffn.out";
    }
    assert(false && "every FFN part has a kind");
    return "";
}

}  // namespace

std::string explanation_kind(const StepRecord& record, const ModelConfig& c) {
    const StepId& id = record.id;
    switch (id.kind) {
        case StepKind::token_embedding:
            if (c.scale_embedding) return "embed_scaled";
            return c.positional == Positional::rotary ? "embed_rotary" : "embed";
        case StepKind::position:
            if (c.positional == Positional::learned) return "pos_learned";
            return c.sinusoid_layout == SinusoidLayout::halves ? "pos_sinusoidal_halves" : "pos_sinusoidal";
        case StepKind::token_type: return "token_type";
        case StepKind::embedding_sum:
            return embedding_params(c, id.stack).token_types.empty() ? "input" : "input_token_type";
        case StepKind::embedding_norm: return "embed_norm";
        case StepKind::padding_mask:
            if (id.stack == Stack::encoder) return "mask.src_padding";
            return c.target_pad_id() == -1 && c.pad_id != -1 ? "mask.tgt_padding_start" : "mask.tgt_padding";
        case StepKind::look_ahead_mask: return c.sliding_window > 0 ? "mask.look_ahead_window" : "mask.look_ahead";
        case StepKind::attention_mask:
            if (id.use == AttentionUse::decoder_self && c.sliding_window > 0) return "mask.decoder_self_window";
            return mask_kind(id.use);
        case StepKind::attention: return attention_kind(id.use, id.stage, c.kv_heads() != c.n_heads);
        case StepKind::residual:
            if (c.norm == NormKind::rms_norm) return c.norm_first ? "residual_pre_rms" : "residual_post_rms";
            return c.norm_first ? "residual_pre_ln" : "residual_post_ln";
        case StepKind::norm:
            if (c.norm == NormKind::rms_norm) return c.norm_first ? "norm_pre_rms" : "norm_post_rms";
            return c.norm_first ? "norm_pre_ln" : "norm_post_ln";
        case StepKind::ffn: return ffn_kind(id.part, c.activation, c.gated_ffn);
        case StepKind::stack_output:
            if (!final_norm_params(c, id.stack)) return "stack_output_plain";
            return c.norm == NormKind::rms_norm ? "stack_output_rms" : "stack_output_norm";
        case StepKind::head_transform: return "mlm_head.transform";
        case StepKind::head_activation: return activation_kind("mlm_head", c.activation);
        case StepKind::head_norm: return "mlm_head.norm";
        case StepKind::logits: return c.tie_embeddings ? "logits_tied" : "logits";
        case StepKind::probs: return record.predicts == Prediction::masked_tokens ? "probs_masked" : "probs";
    }
    assert(false && "every step kind has an explanation kind");
    return "";
}

}  // namespace attnlab
