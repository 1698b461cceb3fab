// Forward step -> backward explanation kind: one case per StepKind (and attention stage), as step_kind.cpp does.
#include "explain/backward_kind.h"

#include "forward/mechanisms/head_norm.h"
#include "forward/mechanisms/positions.h"
#include "forward/mechanisms/score_bias.h"
#include "forward/mechanisms/soft_cap.h"
#include "forward/mechanisms/stream_multipliers.h"

#include <cassert>

namespace attnlab {

namespace {

// The scaled stage multiplies by the family's constant (ModelConfig::attention_scale) instead of ÷√D: its variant
// names the constant (attention_steps.cpp).
bool scaled_by_constant(const Step& step) { return step.variant.find("scale=") != std::string::npos; }

std::string_view attention_backward_kind(const Step& step) {
    const AttentionStage stage = step.record.id.stage;
    switch (stage) {
        case AttentionStage::q:
        case AttentionStage::k:
        case AttentionStage::v: return "qkv";
        case AttentionStage::q_norm:
        case AttentionStage::k_norm: return HeadNormMechanism::backward_kind();
        case AttentionStage::q_rot:
        case AttentionStage::k_rot: return PositionMechanism::rotation_backward_kind();
        case AttentionStage::scores: return "scores";
        case AttentionStage::scaled: return scaled_by_constant(step) ? "scaled_by" : "scaled";
        case AttentionStage::capped: return SoftCapMechanism::backward_kind();
        case AttentionStage::biased: return ScoreBiasMechanism::biased_backward_kind();
        case AttentionStage::masked: return "masked";
        case AttentionStage::weights: return "softmax";
        case AttentionStage::context: return "context";
        case AttentionStage::concat: return "concat";
        case AttentionStage::out: return "linear";
    }
    return "linear";
}

}  // namespace

std::string_view backward_kind(const Step& step) {
    const StepId& id = step.record.id;
    switch (id.kind) {
        case StepKind::token_embedding: return StreamMultiplierMechanism::embedding_backward_kind(step);
        case StepKind::position: return "position";
        case StepKind::token_type: return "token_type";
        case StepKind::embedding_sum: return "sum";
        case StepKind::embedding_norm:
        case StepKind::post_norm:
        case StepKind::norm:
        case StepKind::head_norm: return "norm";
        case StepKind::stack_output: return step.params.empty() ? "identity" : "norm";
        case StepKind::attention: return attention_backward_kind(step);
        case StepKind::position_bias: return ScoreBiasMechanism::bias_backward_kind();
        case StepKind::residual: return StreamMultiplierMechanism::residual_backward_kind(step);
        case StepKind::ffn:
            if (id.part == FfnPart::activation) return "activation";
            if (id.part == FfnPart::routing) return "routing";
            if (id.part == FfnPart::out && step.inputs.size() == 2) return "experts";  // a mixture's weighted sum
            return id.part == FfnPart::gated ? "gated" : "linear";
        case StepKind::head_transform: return "linear";
        case StepKind::head_activation: return "activation";
        case StepKind::logits: return "logits";
        case StepKind::capped_logits: return SoftCapMechanism::backward_kind();
        case StepKind::padding_mask:
        case StepKind::look_ahead_mask:
        case StepKind::attention_mask:
        case StepKind::probs: break;
    }
    assert(false && "only steps with a backward have a backward kind");
    return "identity";
}

}  // namespace attnlab
