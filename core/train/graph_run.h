// The step graph's second executor, for training and batched inference: it runs the steps that
// build_forward_steps makes over a padded batch of B sequences (ForwardInputs::batch), keeps every output, and runs
// the steps' own backward functions in reverse. The stepper (core/stepper.h) is the other executor: one sequence,
// step by step, with a trace a user can edit. Both run the same steps, so training and stepping share every op,
// step and backward.
#pragma once

#include "forward/step.h"

#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attnlab {

class GraphRun {
public:
    GraphRun(const ModelConfig& config, const GraphOptions& options = {});

    const std::vector<Step>& steps() const { return steps_; }
    std::optional<size_t> find(const StepId& id) const;
    // The logits step (N, V): every family with an output head has one.
    std::optional<size_t> logits_step() const { return find(StepId::head(StepKind::logits, config_)); }

    // Runs the steps on `inputs` (checked by the caller: ids in the vocabularies, lengths within max_len). weights
    // and inputs must stay alive and unchanged until the next run: backward reads them. After a run with the same
    // weights, batch and source, only the steps that read the target ids and those downstream run again (decoding
    // one more token re-runs the decoder, not the encoder).
    void run(const Weights& weights, const ForwardInputs& inputs);
    const Tensor& output(size_t step) const { return outputs_.at(step); }

    // dL/dθ, given dL/d(the output) of some steps (`seeds`, each its output's shape; the logits, and the attention
    // weights a penalty reads): each step's backward from the last seeded step down, each gradient summed over the
    // steps that read it. Only parameters a gradient reaches appear.
    std::map<std::string, Tensor> backward(std::vector<std::pair<size_t, Tensor>> seeds) const;

private:
    ModelConfig config_;
    std::vector<Step> steps_;
    std::vector<std::vector<size_t>> input_index_;  // step i's inputs as step indices
    std::vector<char> carries_;                     // step i's output depends on a parameter
    std::vector<Tensor> outputs_;                   // aligned with steps_
    std::unordered_map<StepId, size_t, StepIdHash> index_;  // id -> step
    const Weights* weights_ = nullptr;
    const ForwardInputs* inputs_ = nullptr;
    std::vector<int> last_src_;  // the source and batch of the last run
    int last_batch_ = 0;
};

}  // namespace attnlab
