// Step id -> path. The paths are those torch.nn.Transformer's module names suggest, so a trace
// file's keys read like the model's parts.
#include "forward/step_path.h"

#include "forward/mechanisms/layer_variants.h"

#include <cassert>

namespace attnlab {

namespace {

const char* side_prefix(Stack stack) { return stack == Stack::encoder ? "src" : "tgt"; }

std::string stack_word(Stack stack) { return stack == Stack::encoder ? "encoder" : "decoder"; }

const char* ffn_part_name(FfnPart part) {
    switch (part) {
        case FfnPart::hidden: return "hidden";
        case FfnPart::gate: return "gate";
        case FfnPart::activation: return "activation";
        case FfnPart::up: return "up";
        case FfnPart::gated: return "gated";
        case FfnPart::out: return "out";
        case FfnPart::router: return "router";
        case FfnPart::routing: return "routing";
    }
    return "?";
}

const char* mask_name(AttentionUse use) {
    switch (use) {
        case AttentionUse::encoder_self: return "masks.encoder_self";
        case AttentionUse::decoder_self: return "masks.decoder_self";
        case AttentionUse::cross: return "masks.cross";
    }
    return "?";
}

}  // namespace

const char* to_string(AttentionStage stage) {
    switch (stage) {
        case AttentionStage::q: return "q";
        case AttentionStage::k: return "k";
        case AttentionStage::v: return "v";
        case AttentionStage::q_norm: return "q_norm";
        case AttentionStage::k_norm: return "k_norm";
        case AttentionStage::q_rot: return "q_rot";
        case AttentionStage::k_rot: return "k_rot";
        case AttentionStage::scores: return "scores";
        case AttentionStage::scaled: return "scaled";
        case AttentionStage::biased: return "biased";
        case AttentionStage::capped: return "capped";
        case AttentionStage::masked: return "masked";
        case AttentionStage::weights: return "weights";
        case AttentionStage::context: return "context";
        case AttentionStage::concat: return "concat";
        case AttentionStage::out: return "out";
    }
    return "?";
}

std::string layer_name(Stack stack, int layer) { return stack_word(stack) + ".layers." + std::to_string(layer); }

std::string attention_name(const AttentionSite& site) {
    return layer_name(stack_of(site.use), site.layer) +
           (site.use == AttentionUse::cross ? ".cross_attn" : ".self_attn");
}

std::optional<AttentionSite> find_attention(const std::vector<Step>& steps, const std::string& name) {
    for (const Step& step : steps) {
        const StepId& id = step.record.id;
        if (id.kind == StepKind::attention && id.stage == AttentionStage::q && attention_name(id.site()) == name)
            return id.site();
    }
    return std::nullopt;
}

std::vector<std::string> step_paths(const std::vector<StepId>& ids) {
    std::vector<std::string> paths;
    for (const StepId& id : ids) paths.push_back(step_path(id));
    return paths;
}

std::string step_path(const StepId& id) {
    const std::string side = side_prefix(id.stack);
    switch (id.kind) {
        case StepKind::token_embedding: return side + ".embed";
        case StepKind::position: return side + ".pos";
        case StepKind::token_type: return side + ".token_type";
        case StepKind::embedding_sum: return side + ".input";
        case StepKind::embedding_norm: return side + ".embed_norm";
        case StepKind::padding_mask: return id.stack == Stack::encoder ? "masks.src_padding" : "masks.tgt_padding";
        case StepKind::look_ahead_mask: return "masks.look_ahead";
        case StepKind::position_bias: return stack_word(id.stack) + ".position_bias";
        case StepKind::attention_mask: return mask_name(id.use) + std::string(is_local_mask(id) ? "_local" : "");
        case StepKind::attention: return attention_name(id.site()) + "." + to_string(id.stage);
        case StepKind::residual: return layer_name(id.stack, id.layer) + ".residual" + std::to_string(id.sublayer);
        case StepKind::norm: return layer_name(id.stack, id.layer) + ".norm" + std::to_string(id.sublayer);
        case StepKind::post_norm:
            return layer_name(id.stack, id.layer) + ".post_norm" + std::to_string(id.sublayer);
        case StepKind::ffn: return layer_name(id.stack, id.layer) + ".ffn." + ffn_part_name(id.part);
        case StepKind::stack_output: return stack_word(id.stack) + ".output";
        case StepKind::head_transform: return "head.transform";
        case StepKind::head_activation: return "head.activation";
        case StepKind::head_norm: return "head.norm";
        case StepKind::logits: return "logits";
        case StepKind::capped_logits: return "capped_logits";
        case StepKind::probs: return "probs";
    }
    assert(false && "every step kind has a path");
    return "";
}

}  // namespace attnlab
