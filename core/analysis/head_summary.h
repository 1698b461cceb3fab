// What each attention head does, in four numbers per head, over the current input: how spread its
// weights are (entropy), and how much of each query's weight goes to the previous token, to the
// first token and to itself. The usual first look for induction, previous-token and "sink" heads.
#pragma once

#include "config.h"
#include "stepper.h"

#include <string>
#include <vector>

namespace attnlab {

struct HeadStats {
    float entropy = 0.0f;         // mean over query rows of −Σ p·ln p, in nats (0: one key; ln T: uniform)
    float previous_token = 0.0f;  // mean over rows i ≥ 1 of p[i][i−1]
    float first_token = 0.0f;     // mean over rows of p[i][0]
    float self = 0.0f;            // mean over rows of p[i][i]
};

// weights (H, Tq, Tk), rows summing to 1 (a fully masked row is all zeros and is left out).
// previous_token and self need a square self-attention (Tq == Tk); otherwise they are NaN.
std::vector<HeadStats> head_stats(const Tensor& weights);

struct HeadSummary {
    struct Layer {
        AttentionSite attention;       // its name: attention_name(attention), "decoder.layers.3.self_attn"
        std::vector<HeadStats> heads;  // H
    };
    std::vector<Layer> layers;  // every self- and cross-attention that has run, in step order
};

// From the trace: the weights stage of every attention that has run.
HeadSummary summarize_heads(const Stepper& stepper);

}  // namespace attnlab
