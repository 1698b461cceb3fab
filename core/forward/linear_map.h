// A LinearParams map (param_names.h) applied to a step's input, and its formula as the weight's
// layout reads it: "x·Wᵀ + b" for nn.Linear's (out, in), "x·W + b" for GPT-2's Conv1D (in, out).
#pragma once

#include "forward/step.h"
#include "param_names.h"
#include "weights.h"

#include <string>
#include <vector>

namespace attnlab {

// A product of at least this many multiply-adds has its outputs split between the threads
// (parallel.h): every map of GPT-2 small on 64 tokens (768 -> 768: 37.7M) and of the paper-base
// preset on 32 tokens (512 -> 512: 8.4M; with the split its traced pass went from 52.7 ms to
// 35-39 ms on 2 cores). gemm gives each output the same bits however the columns are split.
inline constexpr int64_t kSplitMultiplyAdds = 4'000'000;
// A product over few rows (a token appended: one) is bound by reading its weights, not by its multiply-adds: a
// weight of at least this many floats is split too, so that both cores read it. SmolLM2-135M's FFN maps
// (576 × 1536) on one row are 0.9M multiply-adds; split on 2 cores, each took 0.10 ms, not 0.18.
inline constexpr int64_t kSplitWeightFloats = 64 * 1024;
bool linear_map_splits(int64_t n_rows, int64_t n_in, int64_t n_out);

Tensor linear_map_forward(const Weights& weights, const LinearParams& map, const Tensor& x);  // (N, in) -> (N, out)
// The same output with its NaN and ±∞ entries, each thread counting the columns it has just written (while they are
// in its cache: a pass of its own over a SmolLM2 pass's linear outputs took about 3% of the pass).
struct CountedOutput {
    Tensor value;            // (N, out)
    int64_t non_finite = 0;  // entries of value that are NaN or ±∞
};
CountedOutput linear_map_forward_counted(const Weights& weights, const LinearParams& map, const Tensor& x);
// Its backward: x (N, in), dy = dL/dy (N, out) -> dL/dx (N, in); adds dL/dW (into the map's rows, or columns, of
// the stored weight) and dL/db into grads.
Tensor linear_map_backward(const Weights& weights, const LinearParams& map, const Tensor& x, const Tensor& dy,
                           ParamGrads& grads);
// e.g. linear_map_formula(map, "x", "W_Q", "b_Q") == "x·W_Qᵀ + b_Q"; no "+ b" for a map without a bias.
std::string linear_map_formula(const LinearParams& map, const std::string& x, const std::string& w,
                               const std::string& b);
std::vector<std::string> linear_map_param_names(const LinearParams& map);  // weight, then bias if named
// The step y = x·Wᵀ + b (or x·W + b) of one map over its one input: (N, in) -> (N, out), with its backward.
Step linear_map_step(std::string title, std::string formula, const StepId& input, const LinearParams& map);

}  // namespace attnlab
