#include "analysis/logit_attribution.h"

#include "analysis/head_split.h"

#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/stream_multipliers.h"
#include "forward/step_path.h"
#include "ops/activation.h"
#include "param_names.h"

#include <Eigen/Dense>
#include <cmath>
#include <optional>

namespace attnlab {

// How the split is computed: the frozen norms (and BERT's frozen head transform) are linear maps f_0 … f_{M−1} of
// the whole stream, in stream order, and the metric is the stream's end · u, u the unembedding direction. A
// component c written after f_0 … f_{k−1} reaches the end as f_{M−1}(… f_k(c)), so its share is c · R_k with the
// readout R_M = u, R_k = f_kᵀ(R_{k+1}). The readouts are computed first (backwards, one (C,) vector per map); each
// component's share is then one dot product where it is written: no component's (C,) vector is kept, and a head's
// shares over all source positions come from one (H·D, C) × (C,) product.

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

// One map of the whole stream frozen at this run's values, c -> f(c), and what joins the stream after it.
//   LayerNorm  f(c) = (c − mean(c)) ⊙ γ/σ          (centre, scale = γ/σ; bias β)
//   RMSNorm    f(c) = c ⊙ γ/rms                     (scale = γ/rms; no bias)
//   transform  f(c) = (c·W_tᵀ) ⊙ s, s = act(t)/t   (w_t = W_tᵀ (C_in, C), scale = s; bias b_t ⊙ s)
struct FrozenMap {
    RowD scale;           // (C,)
    bool centre = false;  // centre the input first
    MatD w_t;             // (C_in, C), or empty
    std::optional<RowD> bias;
    AttributionComponent bias_meta;

    RowD pull_back(const RowD& readout) const {  // fᵀ: the readout after the map -> before it
        RowD g = readout.cwiseProduct(scale);
        if (centre) g.array() -= g.mean();
        if (w_t.size() > 0) g = (w_t * g.transpose()).transpose();
        return g;
    }
};

// A norm of the stream frozen at the run's scale; x (C,) is the row the run normalised.
FrozenMap frozen_norm(const ModelConfig& config, const Weights& weights, const NormParams& norm, const RowD& x,
                      AttributionComponent bias_meta) {
    const NormMechanism mechanism(config);
    FrozenMap f;
    f.scale = vector_of(mechanism.gain(weights, norm), 0, x.size()) / mechanism.frozen_divisor(x);  // γ / σ or γ / rms
    if (!mechanism.centres()) return f;  // RMSNorm: no mean, no β
    f.centre = true;
    if (norm.bias.empty()) return f;  // ModernBERT's LayerNorms: no β
    f.bias = vector_of(weights.at(norm.bias), 0, x.size());
    f.bias_meta = std::move(bias_meta);
    return f;
}

// BERT's head transform t = x·W_tᵀ + b_t and its activation a = act(t), frozen as the diagonal scale s = a/t
// (act'(0), as act(ε)/ε, where t = 0). t, a: the run's rows (C,).
FrozenMap frozen_transform(const ModelConfig& config, const Weights& weights, const LinearParams& map, const RowD& t,
                           const RowD& a, AttributionComponent bias_meta) {
    const int64_t C = t.size();
    FrozenMap f;
    f.w_t.resize(map.n_in, C);  // W_tᵀ (C_in, C)
    for (int64_t o = 0; o < C; ++o)
        for (int64_t i = 0; i < map.n_in; ++i) f.w_t(i, o) = linear_weight_at(weights.at(map.weight), map, o, i);
    constexpr float kEps = 1e-6f;
    Tensor eps({1, 1});
    eps.data[0] = kEps;
    const double slope_at_0 = static_cast<double>(activation_forward(eps, config.activation).data[0]) / kEps;
    f.scale.resize(C);
    for (int64_t c = 0; c < C; ++c) f.scale(c) = t(c) == 0.0 ? slope_at_0 : a(c) / t(c);
    if (const Tensor* b = linear_bias(weights, map)) {
        f.bias = vector_of(*b, map.out_begin, C).cwiseProduct(f.scale);
        f.bias_meta = std::move(bias_meta);
    }
    return f;
}

// One attention's output at query q split over its heads and source positions, and its output bias, read through
// `readout` (C,): share(h, j) = w[h, q, j] · V[g(h), j] · (W_O[:, h·D:(h+1)·D]ᵀ · readout), g(h) = ⌊h·H_kv/H⌋.
// Ablated heads write nothing; entries the softmax gave exactly 0 (masked keys) are left out.
Status add_attention(std::vector<AttributionComponent>& out, const Stepper& stepper, const AttentionSite& site,
                     int64_t q, const RowD& readout) {
    auto split = head_split(stepper, site);
    if (!split) return split.error();
    const HeadSplit& s = *split;
    if (q >= s.Tq) return Error{s.name + ": no query " + std::to_string(q)};
    Eigen::VectorXd o(s.H * s.D);  // W_Oᵀ · readout (H·D,)
    for (int64_t k = 0; k < s.H * s.D; ++k) {
        double sum = 0.0;
        for (int64_t c = 0; c < s.C; ++c) sum += linear_weight_at(*s.w_o, s.out, c, k) * readout(c);
        o(k) = sum;
    }
    for (int64_t h = 0; h < s.H; ++h) {
        if (!s.writes(h)) continue;
        for (int64_t j = 0; j < s.Tk; ++j) {
            const double w = s.weight(h, q, j);
            if (w == 0.0) continue;
            AttributionComponent c{ComponentKind::head,
                                   s.name + ".head" + std::to_string(h) + "@" + std::to_string(j),
                                   stack_of(site.use),
                                   site.layer,
                                   static_cast<int>(h),
                                   static_cast<int>(j),
                                   site.use};
            c.value = w * s.value(h, j).dot(o.segment(h * s.D, s.D).transpose());
            out.push_back(std::move(c));
        }
    }
    if (s.out_bias) {
        AttributionComponent c{
            ComponentKind::attention_bias, s.name + ".out_bias", stack_of(site.use), site.layer, -1, -1, site.use};
        c.value = vector_of(*s.out_bias, s.out.out_begin, s.C).dot(readout);
        out.push_back(std::move(c));
    }
    return ok_status();
}

// The run's row q of the output of input 0 of step i (what a norm normalised).
RowD input_row(const Stepper& stepper, size_t i, int64_t q) {
    return row_of(*stepper.output(stepper.step(stepper.input_indices(i).at(0)).path), q);
}

// What a step of the metric's stack does to the stream: writes into it, maps all of it (frozen), or nothing.
enum class StreamRole { none, writes, maps };

StreamRole role_of(const ModelConfig& config, const StepId& id, Stack stack) {
    if (id.stack != stack) return StreamRole::none;
    switch (id.kind) {
        case StepKind::residual: return StreamRole::writes;
        case StepKind::norm: return NormMechanism(config).before_sublayer() ? StreamRole::none : StreamRole::maps;
        case StepKind::head_transform:
        case StepKind::head_norm: return StreamRole::maps;
        case StepKind::stack_output: return final_norm_params(config, stack) ? StreamRole::maps : StreamRole::none;
        default: return StreamRole::none;
    }
}

// The frozen map of step i (role maps) at position q.
FrozenMap frozen_map_of(const Stepper& stepper, size_t i, int64_t q) {
    const ModelConfig& config = stepper.config();
    const Weights& weights = stepper.weights();
    const StepId& id = stepper.step(i).record.id;
    const Stack stack = id.stack;
    const std::string bias_name = stepper.step(i).path + ".bias";
    if (id.kind == StepKind::head_transform) {
        const RowD a = row_of(*stepper.output(StepId::head(StepKind::head_activation, config)), q);
        return frozen_transform(config, weights, *head_params(config).transform, row_of(*stepper.output(id), q), a,
                                {ComponentKind::head_transform_bias, bias_name, stack});
    }
    if (id.kind == StepKind::head_norm)
        return frozen_norm(config, weights, *head_params(config).transform_norm, input_row(stepper, i, q),
                           {ComponentKind::norm_bias, bias_name, stack});
    if (id.kind == StepKind::stack_output)
        return frozen_norm(config, weights, *final_norm_params(config, stack), input_row(stepper, i, q),
                           {ComponentKind::norm_bias, bias_name, stack});
    const NormParams norm = layer_params(config, stack, id.layer).norms.at(static_cast<size_t>(id.sublayer - 1));
    return frozen_norm(config, weights, norm, input_row(stepper, i, q),
                       {ComponentKind::norm_bias, bias_name, stack, id.layer});
}

// The shares step i (role writes: a residual add) writes, read through `readout`; a residual add that writes
// m·Sublayer (Granite's residual_multiplier) through m·readout.
Status add_writes(std::vector<AttributionComponent>& out, const Stepper& stepper, size_t i, int64_t q,
                  const RowD& stream_readout) {
    const RowD readout =
        stream_readout * static_cast<double>(StreamMultiplierMechanism(stepper.config()).residual_multiplier());
    const StepId& id = stepper.step(i).record.id;
    const StepId& sub = stepper.step(stepper.input_indices(i).at(1)).record.id;
    if (sub.kind == StepKind::attention) return add_attention(out, stepper, sub.site(), q, readout);
    if (sub.kind != StepKind::ffn)
        return Error{stepper.step(i).path + ": a residual add of neither an attention nor an FFN"};
    AttributionComponent c{ComponentKind::ffn, layer_name(id.stack, id.layer) + ".ffn", id.stack, id.layer};
    c.value = row_of(*stepper.output(sub), q).dot(readout);
    out.push_back(std::move(c));
    return ok_status();
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
    if (metric.kind == AttributionMetricKind::prob) return Error{prob_refusal(metric.to_string())};
    if (config.post_sublayer_norm)  // Gemma: each write passes a norm of its own, which does not split by head
        return Error{"direct logit attribution splits each sublayer's write into its parts, but this model normalises "
                     "each write (post_norm) before the residual add: not supported"};
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
    const Tensor* input = stepper.output(stack_input(config, stack));  // (N, C)
    if (!input) return Error{"the forward pass has not computed the stack's input"};

    // The frozen maps in stream order, then the readouts R_0 … R_M (R_M = u, the unembedding row of A minus B's).
    std::vector<FrozenMap> maps;
    for (size_t i = 0; i < stepper.size(); ++i)
        if (role_of(config, stepper.step(i).record.id, stack) == StreamRole::maps)
            maps.push_back(frozen_map_of(stepper, i, q));
    const Tensor& w_u = stepper.weights().at(head.unembed.weight);
    const int64_t C = config.d_model;
    std::vector<RowD> readout(maps.size() + 1);
    readout.back().resize(C);
    for (int64_t c = 0; c < C; ++c)  // times the logits' constant (T5's tied d_model^−½, Granite's 1/logits_scaling)
        readout.back()(c) = (linear_weight_at(w_u, head.unembed, metric.token, c) -
                             (diff ? linear_weight_at(w_u, head.unembed, metric.other, c) : 0.0)) *
                            static_cast<double>(config.logit_scale);
    for (size_t k = maps.size(); k-- > 0;) readout[k] = maps[k].pull_back(readout[k + 1]);

    // Every write in stream order, each read through the readout where it joins.
    LogitAttribution result;
    result.metric = metric;
    std::vector<AttributionComponent>& out = result.components;
    AttributionComponent embeddings{ComponentKind::embedding, "embeddings", stack};
    embeddings.value = row_of(*input, q).dot(readout[0]);
    out.push_back(std::move(embeddings));
    size_t k = 0;  // maps passed
    for (size_t i = 0; i < stepper.size(); ++i) {
        const StreamRole role = role_of(config, stepper.step(i).record.id, stack);
        if (role == StreamRole::writes) {
            if (auto st = add_writes(out, stepper, i, q, readout[k]); !st) return st.error();
        } else if (role == StreamRole::maps) {
            const FrozenMap& f = maps[k++];
            if (!f.bias) continue;
            AttributionComponent c = f.bias_meta;
            c.value = f.bias->dot(readout[k]);
            out.push_back(std::move(c));
        }
    }
    if (const Tensor* b = linear_bias(stepper.weights(), head.unembed)) {
        const auto at = [&](int id) {
            return static_cast<double>(b->data[static_cast<size_t>(head.unembed.out_begin + id)]);
        };
        AttributionComponent c{ComponentKind::unembedding_bias, head.unembed.bias, stack};
        c.value = (at(metric.token) - (diff ? at(metric.other) : 0.0)) * static_cast<double>(config.logit_scale);
        out.push_back(std::move(c));
    }
    for (const AttributionComponent& c : out) result.total += c.value;
    const auto logit = [&](int id) { return static_cast<double>(logits->data[static_cast<size_t>(q * V + id)]); };
    result.metric_value = logit(metric.token) - (diff ? logit(metric.other) : 0.0);
    return result;
}

}  // namespace attnlab
