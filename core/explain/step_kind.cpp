// Step record + config -> explanation kind: one case per StepKind, so a new kind of step
// cannot go unexplained without the compiler saying so.
#include "explain/step_kind.h"

#include "param_names.h"

#include <cassert>

namespace attnlab {

namespace {

// The kind of a stage of a multi-head attention: Q, K, V differ between self- and
// cross-attention (where they come from); the later stages read the same either way.
const char* attention_kind(AttentionUse use, AttentionStage stage) {
    const bool cross = use == AttentionUse::cross;
    switch (stage) {
        case AttentionStage::q: return cross ? "cross_attn.q" : "self_attn.q";
        case AttentionStage::k: return cross ? "cross_attn.k" : "self_attn.k";
        case AttentionStage::v: return cross ? "cross_attn.v" : "self_attn.v";
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
    }
    assert(false && "every activation has a kind");
    return "";
}

std::string ffn_kind(FfnPart part, Activation activation) {
    switch (part) {
        case FfnPart::hidden: return "ffn.hidden";
        case FfnPart::activation: return activation_kind("ffn", activation);
        case FfnPart::out: return "ffn.out";
    }
    assert(false && "every FFN part has a kind");
    return "";
}

}  // namespace

std::string explanation_kind(const StepRecord& record, const ModelConfig& c) {
    const StepId& id = record.id;
    switch (id.kind) {
        case StepKind::token_embedding: return c.scale_embedding ? "embed_scaled" : "embed";
        case StepKind::position: return c.positional == Positional::learned ? "pos_learned" : "pos_sinusoidal";
        case StepKind::token_type: return "token_type";
        case StepKind::embedding_sum:
            return embedding_params(c, id.stack).token_types.empty() ? "input" : "input_token_type";
        case StepKind::embedding_norm: return "embed_norm";
        case StepKind::padding_mask: return id.stack == Stack::encoder ? "mask.src_padding" : "mask.tgt_padding";
        case StepKind::look_ahead_mask: return "mask.look_ahead";
        case StepKind::attention_mask: return mask_kind(id.use);
        case StepKind::attention: return attention_kind(id.use, id.stage);
        case StepKind::residual: return c.norm_first ? "residual_pre_ln" : "residual_post_ln";
        case StepKind::norm: return c.norm_first ? "norm_pre_ln" : "norm_post_ln";
        case StepKind::ffn: return ffn_kind(id.part, c.activation);
        case StepKind::stack_output: return final_norm_params(c, id.stack) ? "stack_output_norm" : "stack_output_plain";
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
