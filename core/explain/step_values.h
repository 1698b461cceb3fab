// The placeholder values of one step, computed from the trace: numbers as shown, token names,
// shapes, and the words (terms) each language file translates. Internal to core/explain.
#pragma once

#include "explain/explanation.h"

#include <map>
#include <string>

namespace attnlab {

struct StepValues {
    std::map<std::string, std::string> text;   // placeholder -> text as shown
    std::map<std::string, std::string> terms;  // placeholder -> key of the language file's "terms"
};

// One step in its trace, with the focus resolved against its output.
struct StepSite {
    const Stepper& stepper;
    const Step& step;
    const ExplainFocus& focus;
    const ExplainLabels& labels;

    const ModelConfig& config() const { return stepper.config(); }
    const Tensor* output() const { return stepper.output(step.path); }  // nullptr before the step has run
    const Tensor& input(size_t i) const;  // step.inputs[i]'s output; asserts it has run
    int head() const;                     // focus.head within [0, H)
    int row(int64_t n_rows) const;        // focus.row within [0, n_rows), else the last row
    // The label of token i of the sequence the step's rows (or, with keys, its key columns) index.
    std::string row_label(int64_t i) const;
    std::string key_label(int64_t j) const;
    std::string vocab_label(int64_t id) const;  // a token of the output vocabulary
};

// Values every step of `kind` has, whether or not it has run: sizes, names, which sublayer.
void add_static_values(const StepSite& site, const std::string& kind, StepValues& v);
// The numbers of a step that has run, by group of kinds. Each ignores kinds outside its group.
void add_input_values(const StepSite& site, const std::string& kind, StepValues& v);      // embed, pos, input
void add_mask_values(const StepSite& site, const std::string& kind, StepValues& v);       // masks.*
void add_attention_values(const StepSite& site, const std::string& kind, StepValues& v);  // *_attn.*, attn.*
void add_layer_values(const StepSite& site, const std::string& kind, StepValues& v);      // residual, norm, ffn
void add_output_values(const StepSite& site, const std::string& kind, StepValues& v);     // stack outputs, logits, probs
// A LayerNorm's numbers for row r of its output y (N, C): the input row's mean and √(var + ε),
// the output row's mean and std. Shared by the layers' norms and the final norms.
void add_norm_values(const StepSite& site, const Tensor& y, int64_t r, StepValues& v);

}  // namespace attnlab
