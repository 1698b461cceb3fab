#include "forward/mechanisms/mixture_of_experts.h"

#include "forward/linear_map.h"
#include "ops/activation.h"
#include "ops/routing.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

namespace {

// The rows of x whose routing weight for expert e is not 0: their indices, and x's rows there (n, C).
struct ExpertRows {
    std::vector<int64_t> rows;
    Tensor x;
};

ExpertRows rows_of(const Tensor& x, const Tensor& routing, int expert) {
    const int64_t N = x.dim(0), C = x.dim(1), E = routing.dim(1);
    ExpertRows r;
    for (int64_t t = 0; t < N; ++t)
        if (routing.data[t * E + expert] != 0.0f) r.rows.push_back(t);
    r.x = Tensor::uninitialized({static_cast<int64_t>(r.rows.size()), C});
    for (size_t i = 0; i < r.rows.size(); ++i)
        std::copy_n(x.data.data() + r.rows[i] * C, C, r.x.data.data() + static_cast<int64_t>(i) * C);
    return r;
}

}  // namespace

const std::set<int>& ablated_experts_of(const ForwardInputs& inputs, const FfnSite& ffn) {
    static const std::set<int> none;
    const auto it = inputs.ablated_experts.find(ffn);
    return it == inputs.ablated_experts.end() ? none : it->second;
}

Tensor expert_hidden(const Weights& weights, const ExpertParams& params, Activation activation, const Tensor& x,
                     int expert) {
    Tensor a = activation_forward(linear_map_forward(weights, params.gate[expert], x), activation);  // (n, F)
    a.matrix().array() *= linear_map_forward(weights, params.up[expert], x).matrix().array();
    return a;
}

Tensor experts_forward(const Weights& weights, const ExpertParams& params, Activation activation, const Tensor& x,
                       const Tensor& routing) {
    const int64_t C = x.dim(1), E = routing.dim(1);
    Tensor out({x.dim(0), C});  // (N, C), zeros
    for (int e = 0; e < static_cast<int>(E); ++e) {
        const ExpertRows r = rows_of(x, routing, e);
        if (r.rows.empty()) continue;
        const Tensor y = linear_map_forward(weights, params.down[e], expert_hidden(weights, params, activation, r.x, e));
        for (size_t i = 0; i < r.rows.size(); ++i) {
            const int64_t t = r.rows[i];
            out.row(t) += routing.data[t * E + e] * y.row(static_cast<int64_t>(i));
        }
    }
    return out;
}

// For each expert e and its rows: y = h·W_downᵀ, out_t += w_te·y_t. dL/dw_te = dout_t·y_t, dy_t = w_te·dout_t,
// dh = dy·W_down, da = dh ⊙ u, du = dh ⊙ a, dg = act'(g) ⊙ da, dx_t += dg·W_gate + du·W_up.
ExpertsGrads experts_backward(const Weights& weights, const ExpertParams& params, Activation activation,
                              const Tensor& x, const Tensor& routing, const Tensor& d_out, ParamGrads& grads) {
    const int64_t C = x.dim(1), E = routing.dim(1);
    ExpertsGrads g{Tensor(x.shape), Tensor(routing.shape)};
    for (int e = 0; e < static_cast<int>(E); ++e) {
        const ExpertRows r = rows_of(x, routing, e);
        if (r.rows.empty()) continue;
        const int64_t n = static_cast<int64_t>(r.rows.size());
        const Tensor gate = linear_map_forward(weights, params.gate[e], r.x);  // (n, F)
        const Tensor up = linear_map_forward(weights, params.up[e], r.x);      // (n, F)
        Tensor h = activation_forward(gate, activation);
        const Tensor a = h;
        h.matrix().array() *= up.matrix().array();
        const Tensor y = linear_map_forward(weights, params.down[e], h);  // (n, C)
        Tensor dy = Tensor::uninitialized({n, C});
        for (int64_t i = 0; i < n; ++i) {
            const int64_t t = r.rows[i];
            g.drouting.data[t * E + e] = d_out.row(t).dot(y.row(i));
            dy.row(i) = routing.data[t * E + e] * d_out.row(t);
        }
        const Tensor dh = linear_map_backward(weights, params.down[e], h, dy, grads);  // (n, F)
        Tensor da(dh.shape), du(dh.shape);
        da.matrix() = dh.matrix().cwiseProduct(up.matrix());
        du.matrix() = dh.matrix().cwiseProduct(a.matrix());
        const Tensor dgate = activation_backward(gate, da, activation);
        Tensor dx = linear_map_backward(weights, params.gate[e], r.x, dgate, grads);
        dx.matrix() += linear_map_backward(weights, params.up[e], r.x, du, grads).matrix();
        for (int64_t i = 0; i < n; ++i) g.dx.row(r.rows[i]) += dx.row(i);
    }
    return g;
}

std::vector<PlacedStep> MixtureOfExpertsMechanism::steps(Stack stack, int layer, const ExpertParams& params,
                                                        const StepId& input) const {
    auto part = [&](FfnPart p) { return StepId::ffn_at(stack, layer, p); };
    const int k = experts_per_token_;
    const bool normalize = normalize_;
    const Activation activation = activation_;
    const FfnSite site{stack, layer};
    const int E = static_cast<int>(params.gate.size());
    std::vector<std::string> expert_names;
    for (const auto* maps : {&params.gate, &params.up, &params.down})
        for (const LinearParams& m : *maps)
            if (std::find(expert_names.begin(), expert_names.end(), m.weight) == expert_names.end())
                expert_names.push_back(m.weight);
    const std::string variant = "E=" + std::to_string(E) + " k=" + std::to_string(k) + (normalize ? " renormalised" : "");
    Step routing{"Choose the top-k experts",
                 normalize ? "w = softmax(router) over the k largest, renormalised to sum to 1; 0 elsewhere"
                           : "w = softmax(router) at the k largest; 0 elsewhere",
                 {part(FfnPart::router)},
                 {},
                 {Control::experts_of(site)},
                 variant,
                 [k, normalize, site](const StepContext& ctx) {
                     return StepOutput{route_top_k(ctx.input(0), k, normalize, ablated_experts_of(ctx.inputs, site)),
                                       {}};
                 },
                 [k, normalize, site](const BackwardContext& b) {
                     return InputGrads{route_top_k_backward(b.input(0), k, normalize,
                                                            ablated_experts_of(b.inputs, site), b.d_output)};
                 }};
    Step out{"Weighted sum of the chosen experts",
             "FFN(x) = Σ_e w_e · (act(x·W_gate,eᵀ) ⊙ x·W_up,eᵀ)·W_down,eᵀ  (over the experts with w_e ≠ 0)",
             {input, part(FfnPart::routing)},
             expert_names,
             {},
             variant,
             [params, activation](const StepContext& ctx) {
                 return StepOutput{experts_forward(ctx.weights, params, activation, ctx.input(0), ctx.input(1)), {}};
             },
             [params, activation](const BackwardContext& b) {
                 ExpertsGrads g =
                     experts_backward(b.weights, params, activation, b.input(0), b.input(1), b.d_output, b.params);
                 return InputGrads{std::move(g.dx), std::move(g.drouting)};
             }};
    return {{part(FfnPart::router),
             linear_map_step("Router scores", "router = " + linear_map_formula(params.router, "x", "W_router", ""),
                             input, params.router)},  // (N, E)
            {part(FfnPart::routing), std::move(routing)},
            {part(FfnPart::out), std::move(out)}};  // (N, C)
}

std::string MixtureOfExpertsMechanism::kind(FfnPart part) const {
    switch (part) {
        case FfnPart::router: return "ffn.router";
        case FfnPart::routing: return normalize_ ? "ffn.routing_normalized" : "ffn.routing";
        default: return "ffn.experts";
    }
}

std::string MixtureOfExpertsMechanism::describe() const {
    return "mixture of " + std::to_string(n_experts_) + " gated experts (" + to_string(activation_) + "), top " +
           std::to_string(experts_per_token_);
}

}  // namespace attnlab
