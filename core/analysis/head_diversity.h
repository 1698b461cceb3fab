// Whether the heads of one attention differ: for each head, how much of its weight one key takes
// over every query (a "sink" head puts nearly all of it on one token, e.g. <eos>), and how far its
// weights are from the nearest other head of the same attention. Heads that copy each other, or
// that all stare at one key, show a class nothing of "each head learns its own pattern".
#pragma once

#include "config.h"
#include "stepper.h"

#include <vector>

namespace attnlab {

struct HeadDiversity {
    // max over keys k of the mean over query rows of p[i][k]: 1 when every query puts all its weight
    // on the same key, 1/Tk when every query spreads it evenly
    float top_key_share = 0.0f;
    int nearest_head = -1;  // the other head whose weights are closest; -1 when the attention has one head
    // mean over the (query, key) cells of |p_head − p_nearest|; NaN when the attention has one head
    float nearest_difference = 0.0f;
};

// weights (H, Tq, Tk), rows summing to 1; a fully masked row (all zeros) is left out of every mean.
std::vector<HeadDiversity> head_diversity(const Tensor& weights);

struct HeadDiversitySummary {
    struct Layer {
        AttentionSite attention;            // attention_name(attention): "encoder.layers.0.self_attn"
        std::vector<HeadDiversity> heads;   // H
        float min_pair_difference() const;  // the closest two heads' mean |Δweights| (NaN with one head)
        float max_top_key_share() const;    // the most single-minded head's top_key_share
    };
    std::vector<Layer> layers;  // every self- and cross-attention that has run, in step order
};

// From the trace: the weights stage of every attention that has run.
HeadDiversitySummary summarize_head_diversity(const Stepper& stepper);

}  // namespace attnlab
