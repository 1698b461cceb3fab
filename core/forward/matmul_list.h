// Every matrix product of one forward pass, as shapes read from the config: the work the GEMM
// bound (attnlab-cli bench --gemm-bound) times. Element-wise work (norms, softmax, GELU, masks)
// and the embeddings' lookups are not products and are left out.
#pragma once

#include "config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// `count` products (m, k)·(k, n) = (m, n) per pass.
struct MatmulShape {
    std::string what;  // e.g. "decoder self-attention QKᵀ, per head"
    int64_t m = 0, k = 0, n = 0;
    int64_t count = 0;
    bool b_is_weight = false;  // B is a parameter (a map's weight, the logits' table): each of the `count` is a
                               // different one, read once a pass; A is the activations just made
    double flops() const {
        return 2.0 * static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n) *
               static_cast<double>(count);
    }
};

// The products of a pass over S source and T target tokens (S unused without an encoder, T without a
// decoder), layer after layer summed into one entry per kind: per attention the Q, K and V maps, QKᵀ and
// weights·V of every head as full (·, D)·(D, ·) and (·, keys)·(keys, D) products (the masked half
// included), the output map; the FFN's two maps; BERT's head transform; the logits.
std::vector<MatmulShape> forward_matmuls(const ModelConfig& config, int64_t S, int64_t T);

double total_flops(const std::vector<MatmulShape>& products);

}  // namespace attnlab
