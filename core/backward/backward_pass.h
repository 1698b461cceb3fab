// The backward pass as steps: after the forward pass has run to its end, one backward step per forward step that
// a gradient reaches, in reverse order. Backward step k computes, from dL/d(output) of its forward step, dL/d(each
// input) and adds dL/d(each parameter) (Step::backward). The gradients live in their own trace, by forward step
// index; the forward trace is only read.
//
// Stepping one backward step at a time and running them all at once do the same arithmetic in the same order:
// the gradients are the same bits.
#pragma once

#include "backward/loss.h"
#include "stepper.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

class BackwardPass {
public:
    // The backward steps a forward pass has, in the order they run (forward step indices, last first): every step
    // with a backward whose output depends on a parameter and reaches the logits. Needs no values.
    static std::vector<size_t> plan(const Stepper& forward);
    // The loss of `forward`'s logits, ready to step. The forward pass must have run to its end, and every call
    // below must pass the same, unchanged forward pass (an edit means a new BackwardPass after the re-run).
    // Gradient entries get versions from first_version on (TraceEntry::version: a view redraws when it changes).
    static Result<BackwardPass> create(const Stepper& forward, const LossSpec& loss, uint64_t first_version = 1);
    // Whether create would accept the loss for this forward pass's inputs, without running anything: the model
    // has logits, and the loss fits the sequence and the vocabulary (check_loss). The one-line reason if not.
    static Status check(const Stepper& forward, const LossSpec& loss);

    const LossSpec& loss_spec() const { return loss_; }
    double loss() const { return loss_value_; }

    // Backward steps, in the order they run: step k is the backward of forward step forward_index(k).
    size_t size() const { return order_.size(); }
    size_t forward_index(size_t k) const { return order_.at(k); }
    size_t cursor() const { return cursor_; }  // backward steps run so far
    bool done() const { return cursor_ == order_.size(); }

    bool step(const Stepper& forward);  // runs the next backward step; false when all have run
    // Forward only: a gradient cannot be taken back out of the inputs it was added to (step back by a new pass).
    void run_to(const Stepper& forward, size_t cursor);
    void run_all(const Stepper& forward) { run_to(forward, size()); }

    // dL/d(the output of forward step i), once every backward step that adds to it has run; nullptr before that,
    // and for a step no gradient reaches.
    const TraceEntry* gradient(size_t forward_step) const;
    // The same by the forward step's path, for the files and the tests that name steps so.
    const TraceEntry* gradient(const std::string& path) const;
    // The forward steps some gradient has reached so far, whole or not, in forward order.
    std::vector<size_t> reached() const;
    // dL/d(parameter), each summed over every step that reads it, complete once done().
    const std::map<std::string, Tensor>& param_grads() const { return params_.all(); }
    uint64_t next_version() const { return next_version_; }

private:
    BackwardPass() = default;

    LossSpec loss_;
    double loss_value_ = 0.0;
    std::vector<size_t> order_;  // forward step indices, last first
    // Aligned with the forward steps: the backward steps run when step i's gradient is whole (kNever: no gradient
    // reaches it), and dL/d(output of step i) (an empty value until one arrives).
    static constexpr size_t kNever = static_cast<size_t>(-1);
    std::vector<size_t> complete_after_;
    std::vector<TraceEntry> gradients_;
    std::unordered_map<std::string, size_t> index_;  // forward path -> step, for gradient(path)
    ParamGrads params_;
    size_t cursor_ = 0;
    uint64_t next_version_ = 1;
};

}  // namespace attnlab
