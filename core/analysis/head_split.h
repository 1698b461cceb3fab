// One attention's output split over its heads and source (key) positions, read from a run's trace:
//   c[h, q, j] = w[h, q, j] · V[g(h), j] · W_O[:, h·D:(h+1)·D]ᵀ   (C,),   g(h) = ⌊h·H_kv/H⌋,
// the pieces Σ_{h,j} c[h, q, j] + b_O = the attention's output row q. Direct logit attribution reads each piece
// through a readout, the contribution graph measures each piece's distance to the stream.
#pragma once

#include "param_names.h"
#include "result.h"
#include "stepper.h"

#include <Eigen/Dense>
#include <set>
#include <string>

namespace attnlab {

// A(out, in) of a linear map y = x·Aᵀ + b, read in the stored layout.
double linear_weight_at(const Tensor& w, const LinearParams& map, int64_t out, int64_t in);
// The map's bias (n_stored_out,), or nullptr when it has none.
const Tensor* linear_bias(const Weights& weights, const LinearParams& map);

struct HeadSplit {
    std::string name;                  // "decoder.layers.1.self_attn"
    const Tensor* weights = nullptr;   // (H, Tq, Tk)
    const Tensor* values = nullptr;    // (H_kv, Tk, D)
    const Tensor* w_o = nullptr;       // the output map's stored weight
    LinearParams out;                  // the output map W_O (C, H·D), b_O
    const Tensor* out_bias = nullptr;  // b_O (·,), or nullptr
    std::set<int> ablated;             // heads that write nothing
    int64_t H = 0, H_kv = 0, D = 0, C = 0, Tq = 0, Tk = 0;

    bool writes(int64_t h) const { return ablated.count(static_cast<int>(h)) == 0; }
    double weight(int64_t h, int64_t q, int64_t j) const {  // w[h, q, j]
        return weights->data[static_cast<size_t>((h * Tq + q) * Tk + j)];
    }
    Eigen::RowVectorXd value(int64_t h, int64_t j) const;  // V[g(h), j] (D,)
    // P_h = V[g(h)] · W_O,hᵀ (Tk, C): row j is what head h writes per unit weight on key j, so c[h, q, j] = w·P_h[j].
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> source_outputs(int64_t h) const;
};

// Errors: the attention's weights or V have not been computed, unexpected shapes.
Result<HeadSplit> head_split(const Stepper& stepper, const AttentionSite& site);

}  // namespace attnlab
