// The rules that relate a step's id to the sequences it indexes and what the head predicts.
#include "forward/step_id.h"

namespace attnlab {

Stack stack_of(AttentionUse use) { return use == AttentionUse::encoder_self ? Stack::encoder : Stack::decoder; }

Sequence sequence_of(Stack stack) { return stack == Stack::encoder ? Sequence::source : Sequence::target; }

Prediction prediction_of(const ModelConfig& config) {
    return config.arch == Arch::encoder_only ? Prediction::masked_tokens : Prediction::next_token;
}

bool is_mask(StepKind kind) {
    return kind == StepKind::padding_mask || kind == StepKind::look_ahead_mask || kind == StepKind::attention_mask;
}

bool is_score_stage(AttentionStage stage) {
    return stage == AttentionStage::scores || stage == AttentionStage::scaled || stage == AttentionStage::biased ||
           stage == AttentionStage::capped || stage == AttentionStage::masked || stage == AttentionStage::weights;
}

const char* to_string(AttentionUse use) {
    switch (use) {
        case AttentionUse::encoder_self: return "encoder_self";
        case AttentionUse::decoder_self: return "decoder_self";
        case AttentionUse::cross: return "cross";
    }
    return "?";
}

StepId StepId::attention_at(AttentionSite site, AttentionStage stage) {
    return {StepKind::attention, stack_of(site.use), site.layer, 0, site.use, stage};
}

StepId StepId::mask_of(AttentionUse use) { return {StepKind::attention_mask, stack_of(use), -1, 0, use}; }

StepId StepId::head(StepKind kind, const ModelConfig& config) { return {kind, last_stack(config)}; }

StepRecord StepRecord::of(const StepId& id, const ModelConfig& config) {
    StepRecord r{id, sequence_of(id.stack), std::nullopt, std::nullopt};
    const bool cross = id.use == AttentionUse::cross;
    switch (id.kind) {
        case StepKind::look_ahead_mask: r.keys = Sequence::target; break;
        case StepKind::attention_mask: r.keys = cross ? Sequence::source : r.rows; break;
        case StepKind::position_bias: r.keys = r.rows; break;
        case StepKind::attention:
            if (cross && (id.stage == AttentionStage::k || id.stage == AttentionStage::k_norm ||
                          id.stage == AttentionStage::k_rot || id.stage == AttentionStage::v))
                r.rows = Sequence::source;  // keys and values come from the encoder's memory
            if (is_score_stage(id.stage)) r.keys = cross ? Sequence::source : r.rows;
            break;
        case StepKind::head_transform:
        case StepKind::head_activation:
        case StepKind::head_norm:
        case StepKind::logits:
        case StepKind::capped_logits:
        case StepKind::probs: r.predicts = prediction_of(config); break;
        default: break;
    }
    return r;
}

size_t StepIdHash::operator()(const StepId& id) const {
    uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a over the fields
    for (const int64_t field : {static_cast<int64_t>(id.kind), static_cast<int64_t>(id.stack), int64_t{id.layer},
                                int64_t{id.sublayer}, static_cast<int64_t>(id.use), static_cast<int64_t>(id.stage),
                                static_cast<int64_t>(id.part)})
        h = (h ^ static_cast<uint64_t>(field)) * 0x100000001B3ull;
    return static_cast<size_t>(h ^ (h >> 32));
}

}  // namespace attnlab
