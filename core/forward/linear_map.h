// A LinearParams map (param_names.h) applied to a step's input, and its formula as the weight's
// layout reads it: "x·Wᵀ + b" for nn.Linear's (out, in), "x·W + b" for GPT-2's Conv1D (in, out).
#pragma once

#include "param_names.h"
#include "weights.h"

#include <string>
#include <vector>

namespace attnlab {

// A product of at least this many multiply-adds has its outputs split between the threads
// (parallel.h): every map of GPT-2 small on 64 tokens (its 768 -> 768 query, key,
// value and output maps: 37.7M; the FFN: 151M; the logits: 2.5G) uses both cores of a 2-core
// machine. Our paper-size preset's largest (32 tokens, 512 -> 2048: 33.6M) stays on one thread.
// The split depends only on the shapes, so results repeat bit for bit.
inline constexpr int64_t kSplitMultiplyAdds = 36'000'000;
bool linear_map_splits(int64_t n_rows, int64_t n_in, int64_t n_out);

Tensor linear_map_forward(const Weights& weights, const LinearParams& map, const Tensor& x);  // (N, in) -> (N, out)
// e.g. linear_map_formula(map, "x", "W_Q", "b_Q") == "x·W_Qᵀ + b_Q"; no "+ b" for a map without a bias.
std::string linear_map_formula(const LinearParams& map, const std::string& x, const std::string& w,
                               const std::string& b);
std::vector<std::string> linear_map_param_names(const LinearParams& map);  // weight, then bias if named

}  // namespace attnlab
