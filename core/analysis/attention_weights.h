// The weights stage of every attention that has run: what the head statistics read from a trace.
#pragma once

#include "config.h"
#include "stepper.h"

#include <vector>

namespace attnlab {

struct AttentionWeights {
    AttentionSite attention;  // attention_name(attention): "decoder.layers.3.self_attn"
    const Tensor* weights;    // (H, Tq, Tk), owned by the stepper's trace
};

// In step order; stops at the first attention that has not run yet.
std::vector<AttentionWeights> attention_weights_run(const Stepper& stepper);

}  // namespace attnlab
