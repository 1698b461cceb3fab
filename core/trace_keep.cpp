// Which outputs a trace keeps: the policy, and the size that picks it.
#include "trace_keep.h"

#include "step_rows.h"

#include <unordered_set>

namespace attnlab {

int64_t standard_trace_large_bytes(const std::vector<Step>& steps, const ModelConfig& config, int64_t src_len,
                                   int64_t tgt_len) {
    auto length = [&](Sequence s) { return s == Sequence::source ? src_len : tgt_len; };
    int64_t floats = 0;
    for (const Step& step : steps) {
        const StepRecord& r = step.record;
        if (r.id.kind == StepKind::attention && r.id.stage == AttentionStage::weights && r.keys)
            floats += int64_t{config.n_heads} * length(r.rows) * length(*r.keys);  // (H, N, M)
        else if (r.id.kind == StepKind::logits || r.id.kind == StepKind::capped_logits || r.id.kind == StepKind::probs)
            floats += length(r.rows) * config.output_vocab_size();  // (N, V)
    }
    return floats * static_cast<int64_t>(sizeof(float));
}

TraceKeep resolve_trace_keep(TraceKeep choice, int64_t large_bytes, TraceKeep now) {
    if (choice != TraceKeep::automatic) return choice;
    const int64_t above = now == TraceKeep::checkpoints ? kStandardTraceLargeBytes / 2 : kStandardTraceLargeBytes;
    return large_bytes > above ? TraceKeep::checkpoints : TraceKeep::standard;
}

void assign_retentions(std::vector<Step>& steps, TraceKeep keep) {
    // Q, K and V: QKᵀ's two inputs and weights·V's second. A row re-run reads every key row as it is kept
    // (step_rows.h), and bounds QKᵀ by the largest row of each of Q and K (ops/attention.h: scores_cannot_overflow).
    std::unordered_set<StepId, StepIdHash> qkv;
    for (const Step& step : steps) {
        const StepId& id = step.record.id;
        if (id.kind != StepKind::attention) continue;
        if (id.stage == AttentionStage::scores) qkv.insert(step.inputs.begin(), step.inputs.end());
        if (const auto key = key_input(id); key && id.stage == AttentionStage::context) qkv.insert(step.inputs.at(*key));
    }
    for (Step& step : steps) {
        const StepKind kind = step.record.id.kind;
        const bool checkpoint = step.inputs.empty() || is_mask(kind) || qkv.count(step.record.id) > 0 ||
                                kind == StepKind::residual || kind == StepKind::stack_output ||
                                kind == StepKind::embedding_sum || kind == StepKind::embedding_norm ||
                                kind == StepKind::logits;
        step.retention = keep != TraceKeep::checkpoints ? retention_of(step.record.id)
                         : checkpoint                   ? Retention::kept
                                                        : Retention::on_demand;
    }
}

const char* to_string(TraceKeep keep) {
    switch (keep) {
        case TraceKeep::automatic: return "automatic";
        case TraceKeep::standard: return "standard";
        case TraceKeep::checkpoints: return "checkpoints";
    }
    return "";
}

std::optional<TraceKeep> trace_keep_named(std::string_view name) {
    for (TraceKeep k : {TraceKeep::automatic, TraceKeep::standard, TraceKeep::checkpoints})
        if (name == to_string(k)) return k;
    return std::nullopt;
}

}  // namespace attnlab
