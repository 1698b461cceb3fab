// Step: one stage of the forward pass: what it is (a typed record and the path that names it),
// a title, a formula, what it reads, how it computes. The forward pass is an ordered list of
// them, built by GraphBuilder (graph_builder.h); the stepper runs them.
#pragma once

#include "config.h"
#include "forward/step_id.h"
#include "ops/masks.h"
#include "tensor.h"
#include "weights.h"

#include <cassert>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace attnlab {

// One layer's FFN: where a mixture of experts' experts are switched off (ForwardInputs::ablated_experts).
struct FfnSite {
    Stack stack = Stack::decoder;
    int layer = 0;
    auto operator<=>(const FfnSite&) const = default;
};

// What the user controls besides the weights and the config.
struct ForwardInputs {
    std::vector<int> src_ids;                              // (B·S,) encoder input; pad_id marks padding
    std::vector<int> tgt_ids;                              // (B·T,) decoder input, usually <sos> first
    std::map<AttentionUse, MaskOverrides> mask_overrides;  // the mask of one use of attention -> cells
    std::map<AttentionSite, std::set<int>> ablated_heads;  // an attention -> its heads switched off
    // BERT's token type (segment: 0 for the first sentence, 1 for the second) of each source
    // position; positions past its end are type 0, so it may stay empty.
    std::vector<int> src_token_types = {};
    // Sequences side by side (training's padded batch): sequence b is ids [b·S, (b+1)·S) of src_ids and
    // [b·T, (b+1)·T) of tgt_ids; every (N, ·) output has its rows, and attention its B·H heads, in that order.
    // The stepper runs one (B = 1), where the user's mask cells and row re-runs apply.
    int batch = 1;
    // Training only: draws the masks of the dropout steps (GraphOptions::dropout) for one batch.
    uint64_t dropout_seed = 0;

    // A mixture of experts' FFN -> its experts switched off: their routing weight is 0 wherever the router chose them.
    std::map<FfnSite, std::set<int>> ablated_experts = {};

    int64_t src_length() const { return static_cast<int64_t>(src_ids.size()) / batch; }  // S
    int64_t tgt_length() const { return static_cast<int64_t>(tgt_ids.size()) / batch; }  // T
};

struct StepOutput {
    Tensor value;
    std::vector<int64_t> fully_masked_rows;  // attention weights only: query rows with every key masked
    // NaN and ±∞ entries of value, when the step counted them as it wrote them (a linear map, in each thread's
    // columns while they are in its cache); the stepper counts them itself otherwise.
    std::optional<int64_t> non_finite = std::nullopt;
};

struct StepContext {
    const ModelConfig& config;
    const Weights& weights;
    const ForwardInputs& inputs;
    std::vector<const Tensor*> in;  // the outputs of Step::inputs, in order
    // Input 0 when nothing reads it after this step (an on-demand output the stepper would drop next, or a slice
    // of rows made for this step): a step that writes its output over its input (÷√D, the mask, softmax) takes
    // its array (own_first_input). nullptr otherwise.
    Tensor* takeable_first_input = nullptr;
    // The row of the step's record rows that row 0 of the inputs and the output is: a row re-run computes rows
    // [first_row, N) from its inputs' rows [first_row, N). Read by what depends on a row's position (RoPE).
    int64_t first_row = 0;

    const Tensor& input(size_t i) const { return *in.at(i); }
    const Tensor& param(const std::string& name) const { return weights.at(name); }
};

// Input 0's numbers as an array of this step's own, to write its output over: the takeable input's array when the
// stepper offers it (which keeps its shape without numbers, as a dropped on-demand output does), else a copy.
inline Tensor own_first_input(const StepContext& ctx) {
    if (!ctx.takeable_first_input) return ctx.input(0);
    Tensor out;
    out.shape = ctx.takeable_first_input->shape;
    out.data = std::move(ctx.takeable_first_input->data);
    return out;
}

// A part of ForwardInputs a step reads (Step::controls): when it changes, the step and what reads it run again.
enum class ControlKind {
    src_ids,          // ForwardInputs::src_ids
    tgt_ids,          // tgt_ids
    src_token_types,  // src_token_types
    mask,             // the user's cells of one use's mask: mask_overrides[use]
    ablation,         // the heads switched off in one attention: ablated_heads[site]
    expert_ablation,  // the experts switched off in one FFN: ablated_experts[ffn]
};
struct Control {
    ControlKind kind = ControlKind::src_ids;
    AttentionUse use = AttentionUse::encoder_self;  // mask
    AttentionSite site = {};                        // ablation
    FfnSite ffn = {};                               // expert_ablation
    auto operator<=>(const Control&) const = default;

    static Control mask_of(AttentionUse use) { return {ControlKind::mask, use, {}, {}}; }
    static Control ablation_of(const AttentionSite& site) { return {ControlKind::ablation, {}, site, {}}; }
    static Control experts_of(const FfnSite& ffn) { return {ControlKind::expert_ablation, {}, {}, ffn}; }
    // "src_ids", "tgt_ids", "src_token_types", "mask:<the mask step's path>", "ablation:<attention name>",
    // "experts:<the routing step's path>"
    std::string name() const;
};
inline constexpr Control kSrcIdsControl{ControlKind::src_ids};
inline constexpr Control kTgtIdsControl{ControlKind::tgt_ids};
inline constexpr Control kSrcTokenTypesControl{ControlKind::src_token_types};

// Whether the trace keeps a step's output. Outputs that are an exact, cheap function of one kept output are on
// demand: the attention stages QKᵀ, ÷√D and the mask ((H, Tq, Tk) each, three quarters of a long trace), the
// concatenated heads (a copy of the context) and the FFN's activation (of its hidden layer). They are dropped
// once the steps reading them have run, and recomputed from their inputs, bit for bit the same numbers, when a
// view or the CLI asks for them.
enum class Retention { kept, on_demand };
Retention retention_of(const StepId& id);

// Whether a step's output holds no NaN or ±∞ (as TraceEntry::non_finite counts them) whenever its inputs hold
// none: ÷√D (a factor ≤ 1), the mask (the −∞ it writes are not counted), softmax (every entry in [0, 1]: the
// attention weights and the output probabilities), the merge of the heads (the same numbers, moved) and the FFN's
// activation (|act(x)| ≤ |x| for ReLU, GELU and SiLU, their exp and tanh saturating rather than overflowing). The
// stepper counts their outputs only when an input is not finite: three (H, Tq, Tk) passes less per attention, one
// (N, F) per FFN, and one (N, V) pass less at the end (256 × 151,936 floats for a Qwen2.5 shape).
bool finite_from_finite(const StepId& id);

// Gradients of the parameters, summed over every step that reads them (a tied embedding gets both of its uses).
// Each array has its parameter's shape and starts at zero; a step adds its part.
class ParamGrads {
public:
    Tensor& of(const std::string& name, const Shape& shape);  // the named parameter's (made zero on first use)
    // Adds `part`, the parameter's whole gradient from one step: it becomes the array when it is the first, so a
    // large weight is not zeroed only to be added to.
    void add(const std::string& name, Tensor part);
    const std::map<std::string, Tensor>& all() const { return grads_; }
    std::map<std::string, Tensor> take() { return std::move(grads_); }

private:
    std::map<std::string, Tensor> grads_;
};

// What a step's backward reads: its inputs and output as the forward pass left them (fetched when asked: an
// on-demand output is recomputed only for a backward that reads it), and dL/d(output).
struct BackwardContext {
    const ModelConfig& config;
    const Weights& weights;
    const ForwardInputs& inputs;
    std::function<const Tensor&(size_t)> input;  // the outputs of Step::inputs, as in StepContext
    std::function<const Tensor&()> output;
    const Tensor& d_output;  // dL/d(output), the output's shape
    ParamGrads& params;      // where the step adds dL/d(each parameter it reads)

    const Tensor& param(const std::string& name) const { return weights.at(name); }
    Tensor& param_grad(const std::string& name) const { return params.of(name, weights.at(name).shape); }
};

// dL/d(each input) in Step::inputs' order, each the input's shape; an empty tensor for an input no gradient
// reaches (a mask, token ids).
using InputGrads = std::vector<Tensor>;

struct Step {
    std::string title;                // short, for the timeline
    std::string formula;              // what it computes, in the paper's notation
    std::vector<StepId> inputs;       // the steps whose outputs it reads, in the order compute() expects
    std::vector<std::string> params;  // weight names it reads
    std::vector<Control> controls;    // the parts of ForwardInputs it reads
    std::string variant;              // config details that change the result but not the formula (ε, ...)
    std::function<StepOutput(const StepContext&)> compute;
    // The chain rule through compute: empty for a step whose output depends on no parameter (masks, sinusoids,
    // the probabilities, which no loss reads).
    std::function<InputGrads(const BackwardContext&)> backward = {};
    // Written by GraphBuilder::add from the step's id; read by everything else.
    StepRecord record = {};
    std::string path = {};                  // step_path(record.id): stable, e.g. encoder.layers.0.self_attn.scaled
    Retention retention = Retention::kept;  // retention_of(record.id)

    // Two steps with equal signatures compute the same function of the same things.
    std::string signature() const;
};

// How a graph differs from the stepper's: training's variants of the steps.
struct GraphOptions {
    // Dropout (inverted, ops/dropout.h) on each stack's input and on every sublayer's output before its residual
    // add (the paper's §5.4; GPT-2's embd_pdrop and resid_pdrop; BERT's hidden dropout), drawn from
    // ForwardInputs::dropout_seed. 0: the inference steps. A dropped-out step's backward must not read its output.
    float dropout = 0.0f;
};

// The whole forward pass for a config, in execution order.
std::vector<Step> build_forward_steps(const ModelConfig& config, const GraphOptions& options = {});

// The step whose output (N, C) a stack's first layer reads: the embedding LayerNorm, the sum of
// the embeddings, or the token embeddings alone, as far as the config has them.
StepId stack_input(const ModelConfig& config, Stack stack);

}  // namespace attnlab
