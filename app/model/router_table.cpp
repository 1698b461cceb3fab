#include "router_table.h"

#include "forward/mechanisms/mixture_of_experts.h"
#include "ops/routing.h"

namespace attnlab {

std::optional<RouterTable> router_table(const Stepper& stepper, const FfnSite& ffn) {
    const ModelConfig& c = stepper.config();
    const Tensor* scores = stepper.output(StepId::ffn_at(ffn.stack, ffn.layer, FfnPart::router));
    const Tensor* routing = stepper.output(StepId::ffn_at(ffn.stack, ffn.layer, FfnPart::routing));
    if (!scores || !routing || !has_experts(c, ffn.layer)) return std::nullopt;
    RouterTable t;
    t.n_tokens = static_cast<int>(routing->dim(0));
    t.n_experts = static_cast<int>(routing->dim(1));
    t.weights = routing->matrix();
    t.tokens_per_expert.assign(static_cast<size_t>(t.n_experts), 0);
    t.weight_per_expert.assign(static_cast<size_t>(t.n_experts), 0.0f);
    for (int i = 0; i < t.n_tokens; ++i) {
        const float* row = scores->data.data() + static_cast<int64_t>(i) * t.n_experts;
        std::vector<ExpertChoice> chosen;
        for (int e : top_k_experts(row, t.n_experts, c.experts_per_token)) {
            chosen.push_back({e, t.weights(i, e), row[e]});
            ++t.tokens_per_expert[static_cast<size_t>(e)];
            t.weight_per_expert[static_cast<size_t>(e)] += t.weights(i, e);
        }
        t.chosen.push_back(std::move(chosen));
    }
    t.switched_off = ablated_experts_of(stepper.inputs(), ffn);
    return t;
}

std::vector<ExpertUnits> chosen_expert_units(const Stepper& stepper, const FfnSite& ffn, const RouterTable& table,
                                             int token) {
    const auto router = stepper.find(StepId::ffn_at(ffn.stack, ffn.layer, FfnPart::router));
    if (!router || token < 0 || token >= table.n_tokens) return {};
    const Tensor* x = stepper.output(stepper.step(*router).inputs.front());  // the FFN's input (N, C)
    if (!x) return {};
    const LayerParams params = layer_params(stepper.config(), ffn.stack, ffn.layer);
    Tensor row = Tensor::uninitialized({1, x->dim(1)});
    row.row(0) = x->row(token);
    std::vector<ExpertUnits> out;
    for (const ExpertChoice& choice : table.chosen[static_cast<size_t>(token)]) {
        const Tensor h = expert_hidden(stepper.weights(), *params.experts, stepper.config().activation, row,
                                       choice.expert);  // (1, F)
        out.push_back({choice, std::vector<float>(h.data.begin(), h.data.end())});
    }
    return out;
}

}  // namespace attnlab
