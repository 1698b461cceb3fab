// A mechanism is one architectural choice a family makes: its norm (norm.h), how it knows positions
// (positions.h), its feed-forward network (feed_forward.h), the norms of each attention head (head_norm.h).
// Each is one unit: it reads its switches from the ModelConfig, and it alone turns them into steps (with their
// backward), formulas, the text kinds of the explanations and the numbers those texts show. GraphBuilder adds the
// steps a mechanism makes; core/explain formats its numbers. A new norm or positional scheme is a new case in one
// of these files, not an edit of the builder, the explanations and the views.
#pragma once

#include "forward/step.h"

#include <vector>

namespace attnlab {

// A step and the id the graph adds it under, in the order the mechanism's steps run.
struct PlacedStep {
    StepId id;
    Step step;
};

// A number an explanation shows for the focused row, under its placeholder in the language files' texts.
enum class ShownAs {
    measure,  // a few decimals (explain/number_format.h)
    whole,    // a count or an index, as an integer
    percent,  // a fraction in [0, 1], shown as a percentage
};
struct ExplainNumber {
    const char* placeholder;
    double value;
    ShownAs shown = ShownAs::measure;
};
using ExplainNumbers = std::vector<ExplainNumber>;

}  // namespace attnlab
