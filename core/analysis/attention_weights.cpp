#include "analysis/attention_weights.h"

namespace attnlab {

std::vector<AttentionWeights> attention_weights_run(const Stepper& stepper) {
    std::vector<AttentionWeights> out;
    for (const Step& step : stepper.steps()) {
        const StepId& id = step.record.id;
        if (id.kind != StepKind::attention || id.stage != AttentionStage::weights) continue;
        const Tensor* weights = stepper.output(id);
        if (!weights) break;  // not run yet, nor anything after it
        out.push_back({id.site(), weights});
    }
    return out;
}

}  // namespace attnlab
