// The backward pass as steps: after the forward pass has run to its end, one backward step per forward step that
// a gradient reaches, in reverse order. Backward step k computes, from dL/d(output) of its forward step, dL/d(each
// input) and adds dL/d(each parameter) (Step::backward). The gradients live in their own trace, under the forward
// steps' paths; the forward trace is only read.
//
// Stepping one backward step at a time and running them all at once do the same arithmetic in the same order:
// the gradients are the same bits.
#pragma once

#include "backward/loss.h"
#include "stepper.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

class BackwardPass {
public:
    // The loss of `forward`'s logits and the list of backward steps. The forward pass must have run to its end
    // and must not change while this object is used (an edit means a new BackwardPass after the re-run).
    static Result<BackwardPass> create(const Stepper& forward, const LossSpec& loss);

    const LossSpec& loss_spec() const { return loss_; }
    double loss() const { return loss_value_; }

    // Backward steps, in the order they run: step k is the backward of forward step forward_index(k).
    size_t size() const { return order_.size(); }
    size_t forward_index(size_t k) const { return order_.at(k); }
    const Step& forward_step(size_t k) const { return forward_->step(order_.at(k)); }
    size_t cursor() const { return cursor_; }  // backward steps run so far
    bool done() const { return cursor_ == order_.size(); }

    bool step();                 // runs the next backward step; false when all have run
    void run_to(size_t cursor);  // forward only: the gradients of a step cannot be taken back out of its inputs
    void run_all() { run_to(size()); }

    // dL/d(the output of the forward step at path), once every backward step that adds to it has run; nullptr
    // before that, and for a step no gradient reaches.
    const Tensor* gradient(const std::string& path) const;
    // The gradient arrays so far, by path (complete or not): for a view that shows a gradient as it builds up.
    const std::map<std::string, Tensor>& gradients() const { return gradients_; }
    // dL/d(parameter), each summed over every step that reads it, complete once done().
    const std::map<std::string, Tensor>& param_grads() const { return params_.all(); }

private:
    BackwardPass() = default;

    const Stepper* forward_ = nullptr;
    LossSpec loss_;
    double loss_value_ = 0.0;
    std::vector<size_t> order_;                     // forward step indices, last first
    std::vector<std::vector<size_t>> input_index_;  // forward step -> the forward steps it reads
    std::vector<size_t> complete_after_;            // forward step -> backward steps run when its gradient is whole
    std::map<std::string, Tensor> gradients_;       // forward path -> dL/d(output)
    ParamGrads params_;
    size_t cursor_ = 0;
};

}  // namespace attnlab
