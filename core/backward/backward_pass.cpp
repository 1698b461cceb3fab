#include "backward/backward_pass.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

Result<BackwardPass> BackwardPass::create(const Stepper& forward, const LossSpec& loss) {
    const ModelConfig& config = forward.config();
    const auto logits = forward.find(StepId::head(StepKind::logits, config));
    if (!logits) return Error{"this model has no output head: there are no logits to take a loss of"};
    if (forward.cursor() != forward.size()) return Error{"run the forward pass to its end before the backward pass"};
    const ForwardInputs& in = forward.inputs();
    const auto& ids = config.has_decoder() ? in.tgt_ids : in.src_ids;
    const int pad = config.has_decoder() ? config.target_pad_id() : config.pad_id;
    auto value = evaluate_loss(loss, *forward.output(forward.step(*logits).path), ids, pad);
    if (!value) return value.error();

    BackwardPass pass;
    pass.forward_ = &forward;
    pass.loss_ = loss;
    pass.loss_value_ = value->value;
    pass.gradients_[forward.step(*logits).path] = std::move(value->d_logits);

    const size_t n = forward.size();
    pass.input_index_.resize(n);
    std::vector<char> carries(n, 0);  // the output depends on a parameter
    for (size_t i = 0; i < n; ++i) {
        const Step& s = forward.step(i);
        carries[i] = !s.params.empty();
        for (const auto& path : s.inputs) {
            const size_t j = *forward.find(path);
            pass.input_index_[i].push_back(j);
            carries[i] = carries[i] || carries[j];
        }
    }
    std::vector<char> reaches_loss(n, 0);  // the loss reads the output, through the steps after it
    reaches_loss[*logits] = 1;
    for (size_t i = *logits + 1; i-- > 0;) {
        if (!reaches_loss[i]) continue;
        for (size_t j : pass.input_index_[i]) reaches_loss[j] = 1;
        if (carries[i] && forward.step(i).backward) pass.order_.push_back(i);
    }
    // A gradient is whole once the last backward step that adds to it (its last reader) has run.
    pass.complete_after_.assign(n, 0);
    for (size_t k = 0; k < pass.order_.size(); ++k)
        for (size_t j : pass.input_index_[pass.order_[k]]) pass.complete_after_[j] = k + 1;
    return pass;
}

bool BackwardPass::step() {
    if (done()) return false;
    const size_t i = order_[cursor_];
    const Step& s = forward_->step(i);
    const auto found = gradients_.find(s.path);
    const Tensor zero = found == gradients_.end() ? Tensor(forward_->run_facts(s.path)->value.shape) : Tensor{};
    const Tensor& d_output = found == gradients_.end() ? zero : found->second;
    const BackwardContext b{forward_->config(),
                            forward_->weights(),
                            forward_->inputs(),
                            [&](size_t j) -> const Tensor& { return *forward_->output(s.inputs.at(j)); },
                            [&]() -> const Tensor& { return *forward_->output(s.path); },
                            d_output,
                            params_};
    InputGrads grads = s.backward(b);
    assert(grads.size() == s.inputs.size() && "one gradient (or an empty tensor) per input");
    for (size_t j = 0; j < grads.size(); ++j) {
        if (grads[j].empty()) continue;
        Tensor& sum = gradients_[s.inputs[j]];
        if (sum.empty()) {
            sum = std::move(grads[j]);
        } else {
            assert(sum.shape == grads[j].shape);
            sum.matrix() += grads[j].matrix();
        }
    }
    ++cursor_;
    return true;
}

void BackwardPass::run_to(size_t cursor) {
    while (cursor_ < std::min(cursor, order_.size())) step();
}

const Tensor* BackwardPass::gradient(const std::string& path) const {
    const auto i = forward_->find(path);
    const auto found = gradients_.find(path);
    if (!i || found == gradients_.end() || cursor_ < complete_after_[*i]) return nullptr;
    return &found->second;
}

}  // namespace attnlab
