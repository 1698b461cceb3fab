// What the router view shows of one mixture-of-experts layer (core/forward/mechanisms/mixture_of_experts.h): each
// token's chosen experts with their routing weights, the load per expert over the sentence, the experts switched
// off, and the hidden units of a token's chosen experts. Read from the stepper's trace; no drawing.
#pragma once

#include "stepper.h"

#include <optional>
#include <set>
#include <vector>

namespace attnlab {

struct ExpertChoice {
    int expert = 0;
    float weight = 0.0f;  // its routing weight: 0 when the expert is switched off
    float score = 0.0f;   // its router score
};

struct RouterTable {
    int n_tokens = 0, n_experts = 0;
    Mat weights;                                    // (N, E): the routing step's output, 0 where not chosen
    std::vector<std::vector<ExpertChoice>> chosen;  // per token, the router's top k, largest score first
    std::vector<int> tokens_per_expert;             // (E,): how many tokens the router sent to each expert
    std::vector<float> weight_per_expert;           // (E,): the sum of its routing weights over the tokens
    std::set<int> switched_off;                     // experts the user switched off in this layer
};

// The layer's table once its routing step has run; nullopt when the layer has no experts or has not run yet.
std::optional<RouterTable> router_table(const Stepper& stepper, const FfnSite& ffn);

// The hidden units act(x·W_gateᵀ) ⊙ x·W_upᵀ (F,) of each expert the router chose for one token, in the order of
// RouterTable::chosen; empty when the FFN's input has not run.
struct ExpertUnits {
    ExpertChoice choice;
    std::vector<float> units;
};
std::vector<ExpertUnits> chosen_expert_units(const Stepper& stepper, const FfnSite& ffn, const RouterTable& table,
                                             int token);

}  // namespace attnlab
