#include "analysis/logit_attribution.h"

#include "forward/step_path.h"
#include "ops/activation.h"
#include "param_names.h"

#include <Eigen/Dense>
#include <cmath>

namespace attnlab {

namespace {

using RowD = Eigen::RowVectorXd;  // (C,) in double
using MatD = Eigen::MatrixXd;

RowD row_of(const Tensor& t, int64_t r) {  // row r of an (N, C) tensor
    return t.row(r).cast<double>();
}

RowD vector_of(const Tensor& t, int64_t begin, int64_t n) {  // entries [begin, begin + n) of a (·,) tensor
    RowD v(n);
    for (int64_t i = 0; i < n; ++i) v(i) = t.data[static_cast<size_t>(begin + i)];
    return v;
}

// A(out, in) of a linear map y = x·Aᵀ + b, read in the stored layout.
double weight_at(const Tensor& w, const LinearParams& map, int64_t out, int64_t in) {
    const int64_t o = map.out_begin + out;
    const int64_t flat = map.layout == WeightLayout::out_in ? o * map.n_in + in : in * map.n_stored_out + o;
    return w.data[static_cast<size_t>(flat)];
}

const Tensor* bias_of(const Weights& weights, const LinearParams& map) {
    if (map.bias.empty()) return nullptr;
    return map.bias_optional ? weights.find(map.bias) : &weights.at(map.bias);
}

// The residual stream at one position as a list of components, each a vector (C,) the stream holds as the sum.
class Stream {
public:
    void add(AttributionComponent meta, RowD v) {
        meta_.push_back(std::move(meta));
        vectors_.push_back(std::move(v));
    }

    // A norm of the stream frozen at the run's scale; x (C,) is the row the run normalised. LayerNorm: each
    // component c -> (c − mean(c))/σ ⊙ γ, and β joins as a component; RMSNorm: c -> c/rms ⊙ γ.
    void freeze_norm(const ModelConfig& config, const Weights& weights, const NormParams& norm, const RowD& x,
                     AttributionComponent bias_meta) {
        const double C = static_cast<double>(x.size());
        const double eps = static_cast<double>(config.layer_norm_eps);
        const RowD gamma = vector_of(weights.at(norm.weight), 0, x.size());
        if (config.norm == NormKind::rms_norm) {
            const double inv_rms = 1.0 / std::sqrt(x.squaredNorm() / C + eps);
            for (RowD& v : vectors_) v = v.cwiseProduct(gamma) * inv_rms;
            return;
        }
        const double var = (x.array() - x.mean()).matrix().squaredNorm() / C;
        const double inv_sigma = 1.0 / std::sqrt(var + eps);
        for (RowD& v : vectors_) v = (v.array() - v.mean()).matrix().cwiseProduct(gamma) * inv_sigma;
        add(std::move(bias_meta), vector_of(weights.at(norm.bias), 0, x.size()));
    }

    // Each component through c -> (c·Aᵀ) ⊙ s: a_t = Aᵀ (C_in, C_out), s (C_out,).
    void map_linear(const MatD& a_t, const RowD& s) {
        for (RowD& v : vectors_) v = (v * a_t).cwiseProduct(s);
    }

    std::vector<AttributionComponent>& meta() { return meta_; }
    const std::vector<RowD>& vectors() const { return vectors_; }

private:
    std::vector<AttributionComponent> meta_;
    std::vector<RowD> vectors_;  // aligned with meta_
};

// One attention's output at query q split over its heads and source positions, and its output bias:
// share(h, j) = w[h, q, j] · V[g(h), j] · W_O[:, h·D:(h+1)·D]ᵀ, g(h) = ⌊h·H_kv/H⌋. Ablated heads write nothing.
// Entries the softmax gave exactly 0 (masked keys) are left out.
Status add_attention(Stream& stream, const Stepper& stepper, const AttentionSite& site, int64_t q) {
    const ModelConfig& config = stepper.config();
    const Tensor* weights = stepper.output(StepId::attention_at(site, AttentionStage::weights));  // (H, Tq, Tk)
    const Tensor* values = stepper.output(StepId::attention_at(site, AttentionStage::v));         // (H_kv, Tk, D)
    const std::string name = attention_name(site);
    if (!weights || !values) return Error{name + ": its weights and V have not been computed"};
    const int64_t H = config.n_heads, H_kv = config.kv_heads(), D = config.d_head(), C = config.d_model;
    const int64_t Tq = weights->dim(1), Tk = weights->dim(2);
    if (weights->dim(0) != H || values->dim(0) != H_kv || values->dim(1) != Tk || values->dim(2) != D || q >= Tq)
        return Error{name + ": unexpected shapes of its weights " + shape_string(weights->shape) + " and V " +
                     shape_string(values->shape)};
    const LayerParams layer = layer_params(config, stack_of(site.use), site.layer);
    const LinearParams& out = site.use == AttentionUse::cross ? layer.cross_attn->out : layer.self_attn.out;
    const Tensor& w_o = stepper.weights().at(out.weight);
    MatD w_o_t(H * D, C);  // W_Oᵀ (H·D, C)
    for (int64_t c = 0; c < C; ++c)
        for (int64_t k = 0; k < H * D; ++k) w_o_t(k, c) = weight_at(w_o, out, c, k);
    const auto ablated = stepper.inputs().ablated_heads.find(site);
    for (int64_t h = 0; h < H; ++h) {
        if (ablated != stepper.inputs().ablated_heads.end() && ablated->second.count(static_cast<int>(h))) continue;
        const int64_t g = h * H_kv / H;
        for (int64_t j = 0; j < Tk; ++j) {
            const double w = weights->data[static_cast<size_t>((h * Tq + q) * Tk + j)];
            if (w == 0.0) continue;
            const RowD v = vector_of(*values, (g * Tk + j) * D, D);  // (D,)
            RowD share = w * (v * w_o_t.block(h * D, 0, D, C));      // (C,)
            AttributionComponent meta{ComponentKind::head,
                                      name + ".head" + std::to_string(h) + "@" + std::to_string(j),
                                      stack_of(site.use),
                                      site.layer,
                                      static_cast<int>(h),
                                      static_cast<int>(j),
                                      site.use};
            stream.add(std::move(meta), std::move(share));
        }
    }
    if (const Tensor* b = bias_of(stepper.weights(), out)) {
        AttributionComponent meta{
            ComponentKind::attention_bias, name + ".out_bias", stack_of(site.use), site.layer, -1, -1, site.use};
        stream.add(std::move(meta), vector_of(*b, out.out_begin, C));
    }
    return ok_status();
}

// BERT's head transform t = x·W_tᵀ + b_t and its activation a = act(t), frozen as the diagonal scale s = a/t
// (act'(0), as act(ε)/ε, where t = 0): each component c -> (c·W_tᵀ) ⊙ s, and b_t ⊙ s joins as a component.
// t, a: the run's rows (C,).
void add_head_transform(Stream& stream, const ModelConfig& config, const Weights& weights, const LinearParams& map,
                        const RowD& t, const RowD& a, AttributionComponent bias_meta) {
    const int64_t C = t.size();
    MatD w_t(map.n_in, C);  // W_tᵀ (C_in, C)
    for (int64_t o = 0; o < C; ++o)
        for (int64_t i = 0; i < map.n_in; ++i) w_t(i, o) = weight_at(weights.at(map.weight), map, o, i);
    constexpr float kEps = 1e-6f;
    Tensor eps({1, 1});
    eps.data[0] = kEps;
    const double slope_at_0 = static_cast<double>(activation_forward(eps, config.activation).data[0]) / kEps;
    RowD s(C);  // (C,)
    for (int64_t c = 0; c < C; ++c) s(c) = t(c) == 0.0 ? slope_at_0 : a(c) / t(c);
    stream.map_linear(w_t, s);
    if (const Tensor* b = bias_of(weights, map))
        stream.add(std::move(bias_meta), vector_of(*b, map.out_begin, C).cwiseProduct(s));
}

// The run's row q of the output of step `input` of step i (what a norm normalised).
RowD input_row(const Stepper& stepper, size_t i, size_t input, int64_t q) {
    return row_of(*stepper.output(stepper.step(stepper.input_indices(i).at(input)).path), q);
}

}  // namespace

const char* to_string(ComponentKind kind) {
    switch (kind) {
        case ComponentKind::embedding: return "embedding";
        case ComponentKind::head: return "head";
        case ComponentKind::attention_bias: return "attention_bias";
        case ComponentKind::ffn: return "ffn";
        case ComponentKind::norm_bias: return "norm_bias";
        case ComponentKind::head_transform_bias: return "head_transform_bias";
        case ComponentKind::unembedding_bias: return "unembedding_bias";
    }
    return "?";
}

Result<LogitAttribution> attribute_logits(const Stepper& stepper, const AttributionMetric& metric) {
    const ModelConfig& config = stepper.config();
    if (config.output_head == OutputHead::none) return Error{"this model has no output head: no logits to attribute"};
    const HeadParams head = head_params(config);
    if (stepper.inputs().batch != 1) return Error{"attribution takes one sequence, not a batch"};
    const StepId logits_id = StepId::head(StepKind::logits, config);
    const Tensor* logits = stepper.output(logits_id);  // (N, V)
    if (!logits) return Error{"the forward pass has not reached the logits yet"};
    const int64_t N = logits->dim(0), V = logits->dim(1), q = metric.position;
    if (q < 0 || q >= N)
        return Error{"position " + std::to_string(q) + " is past the end: the logits have " + std::to_string(N) +
                     " positions (0 to " + std::to_string(N - 1) + ")"};
    const bool diff = metric.kind == AttributionMetricKind::logit_diff;
    for (int id : diff ? std::vector<int>{metric.token, metric.other} : std::vector<int>{metric.token}) {
        if (id < 0 || id >= V)
            return Error{"token id " + std::to_string(id) + " is not in the vocabulary (ids 0 to " +
                         std::to_string(V - 1) + ")"};
    }
    const Stack stack = logits_id.stack;
    Stream stream;
    const StepId input_id = stack_input(config, stack);
    const Tensor* input = stepper.output(input_id);  // (N, C)
    if (!input) return Error{"the forward pass has not computed the stack's input"};
    stream.add({ComponentKind::embedding, "embeddings", stack}, row_of(*input, q));
    for (size_t i = 0; i < stepper.size(); ++i) {
        const StepId& id = stepper.step(i).record.id;
        if (id.stack != stack) continue;
        if (id.kind == StepKind::residual) {
            const StepId& sub = stepper.step(stepper.input_indices(i).at(1)).record.id;
            if (sub.kind == StepKind::attention) {
                if (auto st = add_attention(stream, stepper, sub.site(), q); !st) return st.error();
            } else if (sub.kind == StepKind::ffn) {
                stream.add({ComponentKind::ffn, layer_name(stack, id.layer) + ".ffn", stack, id.layer},
                           row_of(*stepper.output(sub), q));
            } else {
                return Error{stepper.step(i).path + ": a residual add of neither an attention nor an FFN"};
            }
        } else if (id.kind == StepKind::norm && !config.norm_first) {
            const NormParams norm =
                layer_params(config, stack, id.layer).norms.at(static_cast<size_t>(id.sublayer - 1));
            stream.freeze_norm(config, stepper.weights(), norm, input_row(stepper, i, 0, q),
                               {ComponentKind::norm_bias, stepper.step(i).path + ".bias", stack, id.layer});
        } else if (id.kind == StepKind::head_transform) {
            const RowD a = row_of(*stepper.output(StepId::head(StepKind::head_activation, config)), q);
            add_head_transform(stream, config, stepper.weights(), *head.transform, row_of(*stepper.output(id), q), a,
                               {ComponentKind::head_transform_bias, stepper.step(i).path + ".bias", stack});
        } else if (id.kind == StepKind::head_norm) {
            stream.freeze_norm(config, stepper.weights(), *head.transform_norm, input_row(stepper, i, 0, q),
                               {ComponentKind::norm_bias, stepper.step(i).path + ".bias", stack});
        } else if (id.kind == StepKind::stack_output) {
            if (const auto norm = final_norm_params(config, stack))
                stream.freeze_norm(config, stepper.weights(), *norm, input_row(stepper, i, 0, q),
                                   {ComponentKind::norm_bias, stepper.step(i).path + ".bias", stack});
        }
    }
    // The unembedding row of A, minus that of B: u (C,).
    const Tensor& w_u = stepper.weights().at(head.unembed.weight);
    const int64_t C = config.d_model;
    RowD u(C);
    for (int64_t c = 0; c < C; ++c)
        u(c) = weight_at(w_u, head.unembed, metric.token, c) -
               (diff ? weight_at(w_u, head.unembed, metric.other, c) : 0.0);
    LogitAttribution result;
    result.metric = metric;
    result.components = std::move(stream.meta());
    for (size_t k = 0; k < result.components.size(); ++k) result.components[k].value = stream.vectors()[k].dot(u);
    if (const Tensor* b = bias_of(stepper.weights(), head.unembed)) {
        const auto at = [&](int id) {
            return static_cast<double>(b->data[static_cast<size_t>(head.unembed.out_begin + id)]);
        };
        AttributionComponent meta{ComponentKind::unembedding_bias, head.unembed.bias, stack};
        meta.value = at(metric.token) - (diff ? at(metric.other) : 0.0);
        result.components.push_back(std::move(meta));
    }
    for (const AttributionComponent& c : result.components) result.total += c.value;
    const auto logit = [&](int id) { return static_cast<double>(logits->data[static_cast<size_t>(q * V + id)]); };
    result.metric_value = logit(metric.token) - (diff ? logit(metric.other) : 0.0);
    return result;
}

}  // namespace attnlab
