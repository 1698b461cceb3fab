// The mixture-of-experts case of the feed-forward mechanism (ModelConfig::n_experts, outside dense_layers): a router
// scores the E experts for each token, the top k by the softmax of those scores are chosen with their weights
// (renormalised over the chosen when normalize_routing), and the FFN's output is the weighted sum of the chosen
// experts' SwiGLUs (act(x·W_gateᵀ) ⊙ x·W_upᵀ)·W_downᵀ of expert_d_ff units each.
#pragma once

#include "forward/mechanisms/mechanism.h"
#include "param_names.h"

#include <set>
#include <string>

namespace attnlab {

class MixtureOfExpertsMechanism {
public:
    explicit MixtureOfExpertsMechanism(const ModelConfig& config)
        : n_experts_(config.n_experts),
          experts_per_token_(config.experts_per_token),
          normalize_(config.normalize_routing),
          activation_(config.activation) {}

    // The steps of one layer's FFN over its input (N, C): ffn.router (N, E) = x·W_routerᵀ, ffn.routing (N, E) (the
    // chosen experts' weights, 0 elsewhere; reads ForwardInputs::ablated_experts), ffn.out (N, C). Ends at ffn.out.
    std::vector<PlacedStep> steps(Stack stack, int layer, const ExpertParams& params, const StepId& input) const;
    // Explanation kinds: "ffn.router", "ffn.routing" or "ffn.routing_normalized", "ffn.experts" (the out step).
    std::string kind(FfnPart part) const;
    std::string describe() const;  // "mixture of 8 gated experts (silu), top 2"

private:
    int n_experts_;
    int experts_per_token_;
    bool normalize_;
    Activation activation_;
};

// One expert's hidden units h = act(x·W_gateᵀ) ⊙ x·W_upᵀ over rows x (n, C) -> (n, F): what the FFN view shows of
// the experts a token went to.
Tensor expert_hidden(const Weights& weights, const ExpertParams& params, Activation activation, const Tensor& x,
                     int expert);
// Σ over each row's experts of routing[t, e]·expert_e(x_t): x (N, C), routing (N, E) -> (N, C). Only the experts
// with a weight other than 0 in a row run on it.
Tensor experts_forward(const Weights& weights, const ExpertParams& params, Activation activation, const Tensor& x,
                       const Tensor& routing);
struct ExpertsGrads {
    Tensor dx;        // (N, C)
    Tensor drouting;  // (N, E): dL/dout_t · expert_e(x_t) where routing[t, e] ≠ 0, 0 elsewhere
};
// Its backward, adding each chosen expert's weight gradients into grads.
ExpertsGrads experts_backward(const Weights& weights, const ExpertParams& params, Activation activation,
                              const Tensor& x, const Tensor& routing, const Tensor& d_out, ParamGrads& grads);

// The experts switched off in one FFN.
const std::set<int>& ablated_experts_of(const ForwardInputs& inputs, const FfnSite& ffn);

}  // namespace attnlab
