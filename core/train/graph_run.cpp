#include "train/graph_run.h"

#include <algorithm>
#include <cassert>
#include <unordered_map>

namespace attnlab {

GraphRun::GraphRun(const ModelConfig& config, const GraphOptions& options)
    : config_(config), steps_(build_forward_steps(config, options)) {
    input_index_.resize(steps_.size());
    carries_.assign(steps_.size(), 0);
    for (size_t i = 0; i < steps_.size(); ++i) {
        carries_[i] = !steps_[i].params.empty();
        for (const StepId& input : steps_[i].inputs) {
            const size_t j = index_.at(input);
            input_index_[i].push_back(j);
            carries_[i] = carries_[i] || carries_[j];
        }
        index_[steps_[i].record.id] = i;
    }
    outputs_.resize(steps_.size());
}

std::optional<size_t> GraphRun::find(const StepId& id) const {
    const auto it = index_.find(id);
    if (it == index_.end()) return std::nullopt;
    return it->second;
}

void GraphRun::run(const Weights& weights, const ForwardInputs& inputs) {
    const bool only_target = weights_ == &weights && last_batch_ == inputs.batch && last_src_ == inputs.src_ids;
    weights_ = &weights;
    inputs_ = &inputs;
    last_src_ = inputs.src_ids;
    last_batch_ = inputs.batch;
    std::vector<char> rerun(steps_.size(), 0);
    StepContext ctx{config_, weights, inputs, {}};
    for (size_t i = 0; i < steps_.size(); ++i) {
        const Step& s = steps_[i];
        bool again = !only_target || std::count(s.controls.begin(), s.controls.end(), kTgtIdsControl) > 0;
        for (size_t j : input_index_[i]) again = again || rerun[j];
        if (!again) continue;
        rerun[i] = 1;
        ctx.in.clear();
        for (size_t j : input_index_[i]) ctx.in.push_back(&outputs_[j]);
        outputs_[i] = s.compute(ctx).value;
    }
}

std::map<std::string, Tensor> GraphRun::backward(std::vector<std::pair<size_t, Tensor>> seeds) const {
    assert(weights_ && inputs_ && "run before backward");
    std::vector<Tensor> d(steps_.size());  // dL/d(output of step i), empty while none has arrived
    size_t last = 0;
    for (auto& [i, grad] : seeds) {
        assert(grad.shape == outputs_.at(i).shape);
        if (d[i].empty()) {
            d[i] = std::move(grad);
        } else {
            d[i].matrix() += grad.matrix();
        }
        last = std::max(last, i + 1);
    }
    ParamGrads params;
    for (size_t i = last; i-- > 0;) {
        const Step& s = steps_[i];
        if (d[i].empty() || !carries_[i] || !s.backward) continue;
        const auto& in = input_index_[i];
        const BackwardContext b{config_,
                                *weights_,
                                *inputs_,
                                [&](size_t k) -> const Tensor& { return outputs_[in.at(k)]; },
                                [&]() -> const Tensor& { return outputs_[i]; },
                                d[i],
                                params};
        InputGrads grads = s.backward(b);
        assert(grads.size() == in.size() && "one gradient (or an empty tensor) per input");
        for (size_t k = 0; k < grads.size(); ++k) {
            if (grads[k].empty() || !carries_[in[k]]) continue;
            Tensor& sum = d[in[k]];
            if (sum.empty()) {
                sum = std::move(grads[k]);
            } else {
                sum.matrix() += grads[k].matrix();
            }
        }
        d[i] = Tensor{};  // no step before i reads it
    }
    return params.take();
}

}  // namespace attnlab
