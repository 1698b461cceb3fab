// The placeholder values of one step, computed from the trace: numbers as shown, token names,
// shapes, and the words (terms) each language file translates. Internal to core/explain.
// Everything here reads the step's typed record (step.record), never its path.
#pragma once

#include "explain/explanation.h"
#include "forward/mechanisms/mechanism.h"

#include <map>
#include <string>
#include <vector>

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
    const StepId& id() const { return step.record.id; }
    const Tensor* output() const { return stepper.output(step.record.id); }  // nullptr before the step has run
    // Row r of the output, (1, ·), made alone where the output is not kept (Stepper::output_rows); the step has run.
    Tensor output_row(int64_t r) const;
    const Shape& output_shape() const;  // the output's shape, with or without its numbers; the step has run
    const Tensor& input(size_t i) const;  // step.inputs[i]'s output; asserts it has run
    int head() const;                     // focus.head within [0, H)
    int row(int64_t n_rows) const;        // focus.row within [0, n_rows), else the last row
    // The ids of a sequence: the source's or the target's.
    const std::vector<int>& ids(Sequence sequence) const;
    // The label of token i of the sequence the step's rows (or, with keys, its key columns) index.
    std::string row_label(int64_t i) const;
    std::string key_label(int64_t j) const;
    std::string vocab_label(int64_t id) const;  // a token of the output vocabulary
};

// Writes a mechanism's numbers under their placeholders, each formatted as it is shown.
void add_numbers(const ExplainNumbers& numbers, StepValues& v);

// Values every step has, whether or not it has run: sizes, names, which sublayer, how its
// linear map is written.
void add_static_values(const StepSite& site, StepValues& v);
// The numbers of a step that has run, by group of StepKind (explain_step.cpp dispatches).
void add_input_values(const StepSite& site, StepValues& v);      // embeddings, positions, token types, their sum
void add_mask_values(const StepSite& site, StepValues& v);       // padding, look-ahead, attention masks
void add_attention_values(const StepSite& site, StepValues& v);  // every attention stage
void add_bias_values(const StepSite& site, StepValues& v);       // a stack's position bias (score_bias.h)
void add_layer_values(const StepSite& site, StepValues& v);      // residual, LayerNorms, FFN, the MLM head's layers
void add_output_values(const StepSite& site, StepValues& v);     // stack outputs, logits, probs
// A norm's numbers for row r of its output y (N, C) (NormMechanism::row_numbers). Shared by every norm step.
void add_norm_values(const StepSite& site, const Tensor& y, int64_t r, StepValues& v);

}  // namespace attnlab
