// The position bias a stack's self-attentions add to their scores (ALiBi, T5's buckets): one step per stack.
#include "forward/graph_builder.h"

namespace attnlab {

std::optional<StepId> GraphBuilder::position_bias(Stack stack, const std::string& table) {
    if (!score_bias_.on()) return std::nullopt;
    const Control ids = stack == Stack::encoder ? kSrcIdsControl : kTgtIdsControl;
    const StepId id = add(score_bias_.bias_step(stack, table, ids));
    position_bias_[stack] = id;
    return id;
}

}  // namespace attnlab
