// Step record + config -> explanation kind: one case per StepKind, so a new kind of step
// cannot go unexplained without the compiler saying so.
#include "explain/step_kind.h"

#include "forward/mechanisms/feed_forward.h"
#include "forward/mechanisms/head_norm.h"
#include "forward/mechanisms/layer_variants.h"
#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/positions.h"
#include "forward/mechanisms/score_bias.h"
#include "forward/mechanisms/soft_cap.h"
#include "forward/mechanisms/stream_multipliers.h"
#include "param_names.h"

#include <cassert>

namespace attnlab {

namespace {

// The kind of a stage of a multi-head attention: Q, K, V differ between self- and
// cross-attention (where they come from); the later stages read the same either way.
// K and V of grouped-query attention (fewer heads than Q) have their own texts.
const char* attention_kind(AttentionUse use, AttentionStage stage, bool grouped, bool scaled_by_constant) {
    const bool cross = use == AttentionUse::cross;
    switch (stage) {
        case AttentionStage::q: return cross ? "cross_attn.q" : "self_attn.q";
        case AttentionStage::k: return cross ? "cross_attn.k" : grouped ? "self_attn.k_grouped" : "self_attn.k";
        case AttentionStage::v: return cross ? "cross_attn.v" : grouped ? "self_attn.v_grouped" : "self_attn.v";
        case AttentionStage::q_norm:
        case AttentionStage::k_norm: return HeadNormMechanism::kind(stage);
        case AttentionStage::q_rot: return "attn.q_rot";
        case AttentionStage::k_rot: return "attn.k_rot";
        case AttentionStage::scores: return "attn.scores";
        case AttentionStage::scaled: return scaled_by_constant ? "attn.scaled_by" : "attn.scaled";
        case AttentionStage::capped: return SoftCapMechanism::scores_kind();
        case AttentionStage::biased: return ScoreBiasMechanism::biased_kind();
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

}  // namespace

std::string explanation_kind(const StepRecord& record, const ModelConfig& c) {
    const StepId& id = record.id;
    switch (id.kind) {
        case StepKind::token_embedding:
            if (StreamMultiplierMechanism(c).scales_embeddings()) return StreamMultiplierMechanism::embedding_kind();
            return c.scale_embedding ? "embed_scaled" : PositionMechanism(c).token_embedding_kind();
        case StepKind::position: return PositionMechanism(c).position_kind();
        case StepKind::token_type: return "token_type";
        case StepKind::embedding_sum:
            return embedding_params(c, id.stack).token_types.empty() ? "input" : "input_token_type";
        case StepKind::embedding_norm:  // BERT's over the sum, BLOOM's over the token embeddings alone
            return NormMechanism(c).embedding_norm_kind(PositionMechanism(c).added_to_embeddings() ||
                                                         c.type_vocab_size > 0);
        case StepKind::padding_mask:
            if (id.stack == Stack::encoder) return "mask.src_padding";
            return c.target_pad_id() == -1 && c.pad_id != -1 ? "mask.tgt_padding_start" : "mask.tgt_padding";
        case StepKind::look_ahead_mask:  // with local and global layers, the window is the local mask's
            return c.sliding_window > 0 && !has_local_and_global_layers(c) ? "mask.look_ahead_window"
                                                                           : "mask.look_ahead";
        case StepKind::position_bias: return ScoreBiasMechanism(c).bias_kind();
        case StepKind::attention_mask:
            if (is_local_mask(id)) return id.use == AttentionUse::encoder_self ? "mask.encoder_self_local"
                                                                               : "mask.decoder_self_local";
            if (id.use == AttentionUse::decoder_self && c.sliding_window > 0 && !has_local_and_global_layers(c))
                return "mask.decoder_self_window";
            return mask_kind(id.use);
        case StepKind::attention:
            if (c.qk_norm_across_heads && (id.stage == AttentionStage::q_norm || id.stage == AttentionStage::k_norm))
                return HeadNormMechanism::across_heads_kind(id.stage);
            if (c.norm == NormKind::rms_norm_plus_one &&
                (id.stage == AttentionStage::q_norm || id.stage == AttentionStage::k_norm))
                return HeadNormMechanism::kind(id.stage, true);  // Gemma 3's (1 + γ)
            if (id.stage == AttentionStage::scores && has_nope_layers(c) && !rope_of_layer(c, id.layer))
                return "attn.scores_nope";  // a NoPE layer: Q and K reach the scores unturned
            return attention_kind(id.use, id.stage, c.kv_heads() != c.n_heads, c.attention_scale > 0.0f);
        case StepKind::residual:
            if (StreamMultiplierMechanism(c).scales_residual()) return StreamMultiplierMechanism::residual_kind();
            return NormMechanism(c).residual_kind_at(id.layer, id.sublayer);
        case StepKind::norm: return NormMechanism(c).sublayer_kind_at(id.layer, id.sublayer);
        case StepKind::post_norm: return NormMechanism(c).post_sublayer_kind();
        case StepKind::ffn: return FeedForwardMechanism(c).kind(id.part, id.layer);
        case StepKind::stack_output:
            return final_norm_params(c, id.stack) ? NormMechanism(c).stack_output_kind() : "stack_output_plain";
        case StepKind::head_transform: return "mlm_head.transform";
        case StepKind::head_activation: return "mlm_head." + to_string(c.activation);  // mlm_head.gelu, …
        case StepKind::head_norm: return NormMechanism(c).head_norm_kind();
        case StepKind::logits: return c.tie_embeddings ? "logits_tied" : "logits";
        case StepKind::capped_logits: return SoftCapMechanism::logits_kind();
        case StepKind::probs: return record.predicts == Prediction::masked_tokens ? "probs_masked" : "probs";
    }
    assert(false && "every step kind has an explanation kind");
    return "";
}

}  // namespace attnlab
