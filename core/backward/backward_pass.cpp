#include "backward/backward_pass.h"

#include "forward/mechanisms/soft_cap.h"
#include "parallel.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

namespace {

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

// sum += part, entry by entry, split between the threads by rows (each entry's bits the same however it is split):
// a residual stream's gradient is the sum of two (N, C) parts at every layer, and a K or V head's of its query heads.
void add_into(Tensor& sum, const Tensor& part) {
    assert(sum.shape == part.shape);
    const int64_t width = sum.rank() == 0 ? 1 : sum.dim(-1), rows = width == 0 ? 0 : sum.numel() / width;
    parallel_rows(rows, width, [&](int64_t first, int64_t end) {
        float* s = sum.data.data();
        const float* p = part.data.data();
        for (int64_t i = first * width; i < end * width; ++i) s[i] += p[i];
    });
}

const char* kNoLogits = "this model has no output head: there are no logits to take a loss of";

}  // namespace

Status BackwardPass::check(const Stepper& forward, const LossSpec& loss) {
    const ModelConfig& c = forward.config();
    if (!forward.find(final_logits_of(c))) return Error{kNoLogits};
    const LossTargets targets = loss_targets(forward);
    return check_loss(loss, static_cast<int64_t>(targets.ids.size()),
                      c.has_decoder() ? c.tgt_vocab_size : c.src_vocab_size, targets.ids, targets.pad_id);
}

std::vector<size_t> BackwardPass::plan(const Stepper& forward) {
    const auto logits = forward.find(final_logits_of(forward.config()));
    if (!logits) return {};
    std::vector<char> carries(forward.size(), 0);  // the output depends on a parameter
    for (size_t i = 0; i < forward.size(); ++i) {
        carries[i] = !forward.step(i).params.empty();
        for (size_t j : forward.input_indices(i)) carries[i] = carries[i] || carries[j];
    }
    std::vector<char> reaches_loss(forward.size(), 0);  // the loss reads the output, through the steps after it
    reaches_loss[*logits] = 1;
    std::vector<size_t> order;
    for (size_t i = *logits + 1; i-- > 0;) {
        if (!reaches_loss[i]) continue;
        for (size_t j : forward.input_indices(i)) reaches_loss[j] = 1;
        if (carries[i] && forward.step(i).backward) order.push_back(i);
    }
    return order;
}

Result<BackwardPass> BackwardPass::create(const Stepper& forward, const LossSpec& loss, uint64_t first_version) {
    const ModelConfig& config = forward.config();
    const auto logits = forward.find(final_logits_of(config));
    if (!logits) return Error{kNoLogits};
    if (forward.cursor() != forward.size()) return Error{"run the forward pass to its end before the backward pass"};
    const LossTargets targets = loss_targets(forward);
    auto value =
        evaluate_loss(loss, *forward.output(final_logits_of(config)), targets.ids, targets.pad_id);
    if (!value) return value.error();

    BackwardPass pass;
    pass.loss_ = loss;
    pass.loss_value_ = value->value;
    pass.next_version_ = first_version;
    pass.gradients_.resize(forward.size());
    pass.gradients_[*logits] = {std::move(value->d_logits), {}, pass.next_version_++, 0};
    pass.order_ = plan(forward);
    // A gradient is whole once the last backward step that adds to it (its last reader) has run.
    pass.complete_after_.assign(forward.size(), kNever);
    pass.complete_after_[*logits] = 0;
    for (size_t k = 0; k < pass.order_.size(); ++k)
        for (size_t j : forward.input_indices(pass.order_[k])) pass.complete_after_[j] = k + 1;
    for (size_t i = 0; i < forward.size(); ++i) pass.index_[forward.step(i).path] = i;
    return pass;
}

bool BackwardPass::step(const Stepper& forward) {
    if (done()) return false;
    const size_t i = order_[cursor_];
    const Step& s = forward.step(i);
    const std::vector<size_t>& inputs = forward.input_indices(i);
    const bool arrived = !gradients_[i].value.empty();
    const Tensor zero = arrived ? Tensor{} : Tensor(forward.run_facts(s.record.id)->value.shape);
    const Tensor& d_output = arrived ? gradients_[i].value : zero;
    const BackwardContext b{forward.config(),
                            forward.weights(),
                            forward.inputs(),
                            [&](size_t j) -> const Tensor& { return *forward.output(s.inputs.at(j)); },
                            [&]() -> const Tensor& { return *forward.output(s.record.id); },
                            d_output,
                            params_};
    InputGrads grads = s.backward(b);
    assert(grads.size() == inputs.size() && "one gradient (or an empty tensor) per input");
    for (size_t j = 0; j < grads.size(); ++j) {
        if (grads[j].empty()) continue;
        TraceEntry& sum = gradients_[inputs[j]];
        if (sum.value.empty()) {
            sum.value = std::move(grads[j]);
        } else {
            add_into(sum.value, grads[j]);
        }
        sum.version = next_version_++;
    }
    ++cursor_;
    return true;
}

void BackwardPass::run_to(const Stepper& forward, size_t cursor) {
    while (cursor_ < std::min(cursor, order_.size())) step(forward);
}

const TraceEntry* BackwardPass::gradient(size_t forward_step) const {
    if (forward_step >= gradients_.size() || gradients_[forward_step].value.empty()) return nullptr;
    const size_t whole = complete_after_[forward_step];
    if (whole == kNever || cursor_ < whole) return nullptr;
    return &gradients_[forward_step];
}

const TraceEntry* BackwardPass::gradient(const std::string& path) const {
    const auto found = index_.find(path);
    return found == index_.end() ? nullptr : gradient(found->second);
}

std::vector<size_t> BackwardPass::reached() const {
    std::vector<size_t> steps;
    for (size_t i = 0; i < gradients_.size(); ++i)
        if (!gradients_[i].value.empty()) steps.push_back(i);
    return steps;
}

}  // namespace attnlab
