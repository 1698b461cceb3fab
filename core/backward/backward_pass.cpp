#include "backward/backward_pass.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

namespace {

// forward step -> the forward steps it reads
std::vector<std::vector<size_t>> input_indices(const Stepper& forward) {
    std::vector<std::vector<size_t>> index(forward.size());
    for (size_t i = 0; i < forward.size(); ++i)
        for (const auto& path : forward.step(i).inputs) index[i].push_back(*forward.find(path));
    return index;
}

// What the loss reads besides the logits: the sequence they predict and its padding id.
struct LossTargets {
    const std::vector<int>& ids;
    int pad_id;
};
LossTargets loss_targets(const Stepper& forward) {
    const ModelConfig& c = forward.config();
    if (c.has_decoder()) return {forward.inputs().tgt_ids, c.target_pad_id()};
    return {forward.inputs().src_ids, c.pad_id};
}

const char* kNoLogits = "this model has no output head: there are no logits to take a loss of";

}  // namespace

Status BackwardPass::check(const Stepper& forward, const LossSpec& loss) {
    const ModelConfig& c = forward.config();
    if (!forward.find(StepId::head(StepKind::logits, c))) return Error{kNoLogits};
    const LossTargets targets = loss_targets(forward);
    return check_loss(loss, static_cast<int64_t>(targets.ids.size()),
                      c.has_decoder() ? c.tgt_vocab_size : c.src_vocab_size, targets.ids, targets.pad_id);
}

std::vector<size_t> BackwardPass::plan(const Stepper& forward) {
    const auto logits = forward.find(StepId::head(StepKind::logits, forward.config()));
    if (!logits) return {};
    const auto inputs = input_indices(forward);
    std::vector<char> carries(forward.size(), 0);  // the output depends on a parameter
    for (size_t i = 0; i < forward.size(); ++i) {
        carries[i] = !forward.step(i).params.empty();
        for (size_t j : inputs[i]) carries[i] = carries[i] || carries[j];
    }
    std::vector<char> reaches_loss(forward.size(), 0);  // the loss reads the output, through the steps after it
    reaches_loss[*logits] = 1;
    std::vector<size_t> order;
    for (size_t i = *logits + 1; i-- > 0;) {
        if (!reaches_loss[i]) continue;
        for (size_t j : inputs[i]) reaches_loss[j] = 1;
        if (carries[i] && forward.step(i).backward) order.push_back(i);
    }
    return order;
}

Result<BackwardPass> BackwardPass::create(const Stepper& forward, const LossSpec& loss, uint64_t first_version) {
    const ModelConfig& config = forward.config();
    const auto logits = forward.find(StepId::head(StepKind::logits, config));
    if (!logits) return Error{kNoLogits};
    if (forward.cursor() != forward.size()) return Error{"run the forward pass to its end before the backward pass"};
    const LossTargets targets = loss_targets(forward);
    const std::string& logits_path = forward.step(*logits).path;
    auto value = evaluate_loss(loss, *forward.output(logits_path), targets.ids, targets.pad_id);
    if (!value) return value.error();

    BackwardPass pass;
    pass.loss_ = loss;
    pass.loss_value_ = value->value;
    pass.next_version_ = first_version;
    pass.gradients_[logits_path] = {std::move(value->d_logits), {}, pass.next_version_++, 0};
    pass.order_ = plan(forward);
    // A gradient is whole once the last backward step that adds to it (its last reader) has run.
    pass.complete_after_[logits_path] = 0;
    for (size_t k = 0; k < pass.order_.size(); ++k)
        for (const auto& path : forward.step(pass.order_[k]).inputs) pass.complete_after_[path] = k + 1;
    return pass;
}

bool BackwardPass::step(const Stepper& forward) {
    if (done()) return false;
    const Step& s = forward.step(order_[cursor_]);
    const auto found = gradients_.find(s.path);
    const Tensor zero = found == gradients_.end() ? Tensor(forward.run_facts(s.path)->value.shape) : Tensor{};
    const Tensor& d_output = found == gradients_.end() ? zero : found->second.value;
    const BackwardContext b{forward.config(),
                            forward.weights(),
                            forward.inputs(),
                            [&](size_t j) -> const Tensor& { return *forward.output(s.inputs.at(j)); },
                            [&]() -> const Tensor& { return *forward.output(s.path); },
                            d_output,
                            params_};
    InputGrads grads = s.backward(b);
    assert(grads.size() == s.inputs.size() && "one gradient (or an empty tensor) per input");
    for (size_t j = 0; j < grads.size(); ++j) {
        if (grads[j].empty()) continue;
        TraceEntry& sum = gradients_[s.inputs[j]];
        if (sum.value.empty()) {
            sum.value = std::move(grads[j]);
        } else {
            assert(sum.value.shape == grads[j].shape);
            sum.value.matrix() += grads[j].matrix();
        }
        sum.version = next_version_++;
    }
    ++cursor_;
    return true;
}

void BackwardPass::run_to(const Stepper& forward, size_t cursor) {
    while (cursor_ < std::min(cursor, order_.size())) step(forward);
}

const TraceEntry* BackwardPass::gradient(const std::string& path) const {
    const auto found = gradients_.find(path);
    const auto whole = complete_after_.find(path);
    if (found == gradients_.end() || whole == complete_after_.end() || cursor_ < whole->second) return nullptr;
    return &found->second;
}

}  // namespace attnlab
