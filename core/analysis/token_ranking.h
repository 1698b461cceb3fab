// The tokens a row over the vocabulary ranks highest (or lowest): a logit lens's guesses, the
// keys a query attends to most, the logits an OV circuit raises and lowers.
#pragma once

#include "tensor.h"

#include <vector>

namespace attnlab {

struct TokenScore {
    int id = 0;
    float value = 0.0f;
};

// The k largest entries of `row` (the k smallest when !largest), in order; ties go to the lower
// id, so the order never depends on the sort.
std::vector<TokenScore> rank_tokens(const Eigen::Ref<const RowVec>& row, int k, bool largest = true);

}  // namespace attnlab
