// bench --by-step: where a traced forward pass spends its time. Each step is run alone (Stepper::step_forward, so
// its trace bookkeeping is counted with it) and its time added to its group: the same step in every layer (the
// same kind, stage or part, sublayer and use), or a step of its own outside the layers.
#pragma once

#include "stepper.h"

#include <string>
#include <vector>

namespace attnlab::cli {

struct StepGroupTime {
    std::string path;  // the group's first step: "decoder.layers.0.self_attn.scores"
    int count = 0;     // steps in the group (its layers)
    double ms = 0;     // the median over the runs of the group's time in one run
};

// Runs `stepper` from its start to its end `reps` times, step by step; the groups in the pass's order. The stepper
// ends run to its end.
std::vector<StepGroupTime> time_steps_by_group(Stepper& stepper, long long reps);

}  // namespace attnlab::cli
