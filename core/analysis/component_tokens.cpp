#include "analysis/component_tokens.h"

#include "forward/linear_map.h"
#include "forward/mechanisms/norm.h"
#include "forward/step_path.h"
#include "param_names.h"

#include <cmath>

namespace attnlab {

namespace {

// y = x·Aᵀ of a linear map without its bias: the map of x minus the map of 0. x: (1, in) -> (1, out).
Tensor linear_without_bias(const Weights& weights, const LinearParams& map, const Tensor& x) {
    Tensor y = linear_map_forward(weights, map, x);
    if (map.bias.empty()) return y;
    const Tensor zero = linear_map_forward(weights, map, Tensor(x.shape));
    for (size_t i = 0; i < y.data.size(); ++i) y.data[i] -= zero.data[i];
    return y;
}

int layers_of(const ModelConfig& config, Stack stack) {
    return stack == Stack::decoder ? config.n_decoder_layers : config.n_encoder_layers;
}

// A head's output at query q: Σ_j w[h, q, j] · V[g(h), j] (D,) placed at its slice of (1, H·D), through W_O.
Result<Tensor> head_vector(const Stepper& stepper, const AttentionSite& site, int head, int64_t q) {
    const ModelConfig& config = stepper.config();
    const std::string name = attention_name(site);
    if (site.layer < 0 || site.layer >= layers_of(config, stack_of(site.use)) || head < 0 || head >= config.n_heads)
        return Error{"no head " + std::to_string(head) + " in layer " + std::to_string(site.layer) + " of this model"};
    const LayerParams layer = layer_params(config, stack_of(site.use), site.layer);
    if (site.use == AttentionUse::cross && !layer.cross_attn) return Error{name + ": this layer has no cross-attention"};
    const Tensor* weights = stepper.output(StepId::attention_at(site, AttentionStage::weights));  // (H, Tq, Tk)
    const Tensor* values = stepper.output(StepId::attention_at(site, AttentionStage::v));         // (H_kv, Tk, D)
    if (!weights || !values) return Error{name + ": its weights and V have not been computed"};
    const int64_t H = config.n_heads, D = config.d_head(), Tq = weights->dim(1), Tk = weights->dim(2);
    if (q < 0 || q >= Tq)
        return Error{"position " + std::to_string(q) + " is outside the " + std::to_string(Tq) + " queries"};
    const int64_t g = head * config.kv_heads() / H;
    Tensor z({1, H * D});  // zero except head h's slice
    const auto ablated = stepper.inputs().ablated_heads.find(site);
    const bool off = ablated != stepper.inputs().ablated_heads.end() && ablated->second.count(head);
    for (int64_t j = 0; j < Tk && !off; ++j) {
        const float w = weights->data[static_cast<size_t>((head * Tq + q) * Tk + j)];
        for (int64_t d = 0; d < D; ++d)
            z.data[static_cast<size_t>(head * D + d)] += w * values->data[static_cast<size_t>((g * Tk + j) * D + d)];
    }
    const LinearParams& out = site.use == AttentionUse::cross ? layer.cross_attn->out : layer.self_attn.out;
    return linear_without_bias(stepper.weights(), out, z);
}

// An FFN's output row q: the second input of the residual add of its sublayer.
Result<Tensor> ffn_vector(const Stepper& stepper, Stack stack, int layer, int64_t q) {
    for (size_t i = 0; i < stepper.size(); ++i) {
        const StepId& id = stepper.step(i).record.id;
        if (id.kind != StepKind::residual || id.stack != stack || id.layer != layer) continue;
        const size_t sub = stepper.input_indices(i).at(1);
        if (stepper.step(sub).record.id.kind != StepKind::ffn) continue;
        const Tensor* out = stepper.output(stepper.step(sub).path);
        if (!out) return Error{layer_name(stack, layer) + ".ffn has not been computed"};
        if (q < 0 || q >= out->dim(0))
            return Error{"position " + std::to_string(q) + " is outside the " + std::to_string(out->dim(0)) + " rows"};
        Tensor row({1, out->dim(1)});
        row.row(0) = out->row(q);
        return row;
    }
    return Error{"no FFN in layer " + std::to_string(layer) + " of this model"};
}

// v (1, C) through the stack's final norm frozen at row q of this run: (v − mean v) ⊙ γ/σ, or v ⊙ γ/rms.
Status freeze_final_norm(const Stepper& stepper, Stack stack, int64_t q, Tensor& v) {
    const ModelConfig& config = stepper.config();
    const auto norm = final_norm_params(config, stack);
    if (!norm) return ok_status();
    const std::optional<size_t> i = stepper.find(StepId::of(StepKind::stack_output, stack));
    const Tensor* x = i ? stepper.output(stepper.step(stepper.input_indices(*i).at(0)).path) : nullptr;
    if (!x) return Error{"the final norm's input has not been computed"};
    const int64_t C = x->dim(1);
    const Tensor gamma = NormMechanism(config).gain(stepper.weights(), *norm);  // γ, or Gemma's 1 + γ
    double mean = 0.0, sq = 0.0;
    for (int64_t c = 0; c < C; ++c) mean += x->data[static_cast<size_t>(q * C + c)];
    mean /= static_cast<double>(C);
    const bool rms = NormMechanism(config).rms();
    for (int64_t c = 0; c < C; ++c) {
        const double d = x->data[static_cast<size_t>(q * C + c)] - (rms ? 0.0 : mean);
        sq += d * d;
    }
    const double scale = 1.0 / std::sqrt(sq / static_cast<double>(C) + static_cast<double>(config.layer_norm_eps));
    double v_mean = 0.0;
    for (int64_t c = 0; c < C; ++c) v_mean += v.data[static_cast<size_t>(c)];
    v_mean = rms ? 0.0 : v_mean / static_cast<double>(C);
    for (int64_t c = 0; c < C; ++c) {
        const double centred = v.data[static_cast<size_t>(c)] - v_mean;
        v.data[static_cast<size_t>(c)] = static_cast<float>(centred * scale * gamma.data[static_cast<size_t>(c)]);
    }
    return ok_status();
}

}  // namespace

Result<ComponentTokens> component_tokens(const Stepper& stepper, const ComponentRef& component, int64_t position,
                                         int k) {
    const ModelConfig& config = stepper.config();
    if (config.output_head == OutputHead::none) return Error{"this model has no output head to read tokens through"};
    const HeadParams head = head_params(config);
    if (head.transform) return Error{"the MLM head's transform is not linear: no tokens read through it"};
    if (stepper.inputs().batch != 1) return Error{"component tokens take one sequence, not a batch"};
    const StepId logits_id = StepId::head(StepKind::logits, config);
    if (!stepper.output(logits_id)) return Error{"the forward pass has not reached the logits yet"};
    const Stack stack = logits_id.stack;
    if (component.ffn && (component.layer < 0 || component.layer >= layers_of(config, component.stack)))
        return Error{"no FFN in layer " + std::to_string(component.layer) + " of this model"};
    if ((component.ffn ? component.stack : stack_of(component.site.use)) != stack)
        return Error{"the component is not in the stack the output head reads"};
    auto v = component.ffn ? ffn_vector(stepper, component.stack, component.layer, position)
                           : head_vector(stepper, component.site, component.head, position);
    if (!v) return v.error();
    if (auto st = freeze_final_norm(stepper, stack, position, *v); !st) return st.error();
    const Tensor logits = linear_without_bias(stepper.weights(), head.unembed, *v);  // (1, V)
    return ComponentTokens{rank_tokens(logits.row(0), k, true), rank_tokens(logits.row(0), k, false)};
}

}  // namespace attnlab
