// Parameter names and shapes per config, shape checks on load, and seeded initialisation.
#include "weights.h"

#include "param_names.h"

#include <cassert>
#include <cmath>
#include <random>

namespace attnlab {

namespace {

// Collects specs in first-use order; a tensor several maps read (a packed Q;K;V, a tied
// embedding) is listed once.
class SpecList {
public:
    void add(const std::string& name, Shape shape, ParamKind kind) {
        if (name.empty()) return;
        for (const auto& s : specs_)
            if (s.name == name) return;
        specs_.push_back({name, std::move(shape), kind});
    }
    void add(const LinearParams& p) {
        add(p.weight, p.weight_shape(), ParamKind::matrix);
        if (!p.bias_optional) add(p.bias, {p.n_stored_out}, ParamKind::bias);
    }
    void add(const NormParams& p, int64_t C) {
        add(p.weight, {C}, ParamKind::norm_gain);
        add(p.bias, {C}, ParamKind::norm_bias);
    }
    // q_norm and k_norm: γ of one head (D,), or of the whole projection (its outputs) across the heads (OLMoE).
    void add_layer(const LayerParams& l, int64_t C, int64_t D, bool qk_norm_across_heads) {
        for (const AttentionParams* a : {&l.self_attn, l.cross_attn ? &*l.cross_attn : nullptr}) {
            if (!a) continue;
            for (const LinearParams* p : {&a->q, &a->k, &a->v, &a->out}) add(*p);
            if (a->q_norm) add(*a->q_norm, qk_norm_across_heads ? a->q.n_out : D);
            if (a->k_norm) add(*a->k_norm, qk_norm_across_heads ? a->k.n_out : D);
        }
        if (l.ffn_gate) add(*l.ffn_gate);
        add(l.ffn_in);
        add(l.ffn_out);
        if (l.experts) {
            add(l.experts->router);
            for (size_t e = 0; e < l.experts->gate.size(); ++e)
                for (const LinearParams* p : {&l.experts->gate[e], &l.experts->up[e], &l.experts->down[e]}) add(*p);
        }
        for (const NormParams& n : l.norms) add(n, C);
        for (const NormParams& n : l.post_norms) add(n, C);  // Gemma's norms of the sublayers' outputs
    }
    std::vector<ParamSpec> take() { return std::move(specs_); }

private:
    std::vector<ParamSpec> specs_;
};

std::vector<Stack> stacks(const ModelConfig& c) {
    std::vector<Stack> s;
    if (c.has_encoder()) s.push_back(Stack::encoder);
    if (c.has_decoder()) s.push_back(Stack::decoder);
    return s;
}

int vocab_size(const ModelConfig& c, Stack stack) {
    return stack == Stack::encoder ? c.src_vocab_size : c.tgt_vocab_size;
}

}  // namespace

std::string output_weight_name(const ModelConfig& c) {
    return c.output_head == OutputHead::none ? "" : head_params(c).unembed.weight;
}

std::vector<ParamSpec> parameter_specs(const ModelConfig& c) {
    SpecList out;
    const int64_t C = c.d_model;
    for (Stack s : stacks(c)) out.add(embedding_params(c, s).tokens, {vocab_size(c, s), C}, ParamKind::embedding);
    for (Stack s : stacks(c)) out.add(embedding_params(c, s).positions, {c.max_len, C}, ParamKind::embedding);
    for (Stack s : stacks(c)) out.add(embedding_params(c, s).token_types, {c.type_vocab_size, C}, ParamKind::embedding);
    for (Stack s : stacks(c))
        if (const auto norm = embedding_params(c, s).norm) out.add(*norm, C);
    for (Stack s : stacks(c)) out.add(position_bias_table(c, s), {c.relative_buckets, c.n_heads}, ParamKind::embedding);
    for (Stack s : stacks(c)) {
        const int n_layers = s == Stack::encoder ? c.n_encoder_layers : c.n_decoder_layers;
        for (int i = 0; i < n_layers; ++i) out.add_layer(layer_params(c, s, i), C, c.d_head(), c.qk_norm_across_heads);
        if (const auto norm = final_norm_params(c, s)) out.add(*norm, C);
    }
    if (c.output_head != OutputHead::none) {
        const HeadParams head = head_params(c);
        if (head.transform) out.add(*head.transform);
        if (head.transform_norm) out.add(*head.transform_norm, C);
        out.add(head.unembed);
    }
    return out.take();
}

std::vector<ParamSpec> optional_parameter_specs(const ModelConfig& c) {
    if (c.output_head == OutputHead::none) return {};
    const LinearParams unembed = head_params(c).unembed;
    if (!unembed.bias_optional) return {};
    return {{unembed.bias, {unembed.n_stored_out}, ParamKind::bias}};
}

int64_t parameter_count(const ModelConfig& config) {
    int64_t n = 0;
    for (const auto& spec : parameter_specs(config)) n += shape_numel(spec.shape);
    return n;
}

const Tensor& Weights::at(const std::string& name) const {
    const Tensor* t = find(name);
    assert(t && "missing weight");
    return *t;
}

const Tensor* Weights::find(const std::string& name) const {
    auto it = tensors_.find(name);
    return it == tensors_.end() ? nullptr : it->second.get();
}

std::shared_ptr<const Tensor> Weights::shared(const std::string& name) const {
    auto it = tensors_.find(name);
    return it == tensors_.end() ? nullptr : it->second;
}

void Weights::set(const std::string& name, Tensor tensor) {
    tensors_[name] = std::make_shared<const Tensor>(std::move(tensor));
}

void Weights::set_shared(const std::string& name, std::shared_ptr<const Tensor> tensor) {
    tensors_[name] = std::move(tensor);
}

void Weights::set_value(const std::string& name, int64_t flat_index, float value) {
    auto it = tensors_.find(name);
    assert(it != tensors_.end() && flat_index >= 0 && flat_index < it->second->numel());
    Tensor copy = widened(*it->second);  // a BF16 tensor becomes F32 here: its edited value need not be a BF16 one
    copy.data[static_cast<size_t>(flat_index)] = value;
    it->second = std::make_shared<const Tensor>(std::move(copy));
}

Status check_weights(const ModelConfig& config, const Weights& weights) {
    const auto specs = parameter_specs(config);
    for (const auto& spec : specs) {
        const Tensor* t = weights.find(spec.name);
        if (!t) return Error{"missing tensor '" + spec.name + "' " + shape_string(spec.shape)};
        if (t->shape != spec.shape)
            return Error{"tensor '" + spec.name + "' has shape " + shape_string(t->shape) + ", config needs " +
                         shape_string(spec.shape)};
    }
    const auto optional = optional_parameter_specs(config);
    for (const auto& [name, tensor] : weights.all()) {
        bool known = false;
        for (const auto& spec : specs) known = known || spec.name == name;
        if (known) continue;
        const ParamSpec* extra = nullptr;
        for (const auto& spec : optional) extra = spec.name == name ? &spec : extra;
        if (extra) {
            if (tensor->shape != extra->shape)
                return Error{"tensor '" + name + "' has shape " + shape_string(tensor->shape) + ", config needs " +
                             shape_string(extra->shape)};
            continue;
        }
        ModelConfig untied = config;
        untied.tie_embeddings = false;
        if (config.tie_embeddings && !output_weight_name(untied).empty() && name == output_weight_name(untied))
            return Error{"tensor '" + name + "' is present but tie_embeddings is true"};
        return Error{"unexpected tensor '" + name + "' for this config"};
    }
    return ok_status();
}

Weights init_weights(const ModelConfig& config, uint64_t seed) {
    std::mt19937_64 rng(seed);
    Weights w;
    for (const auto& spec : parameter_specs(config)) {
        Tensor t(spec.shape);
        switch (spec.kind) {
            case ParamKind::norm_gain: std::fill(t.data.begin(), t.data.end(), 1.0f); break;
            case ParamKind::embedding: {
                // N(0, 1/C): after the √C scaling a token vector has unit-size entries, like PE.
                std::normal_distribution<float> normal(0.0f, 1.0f / std::sqrt(static_cast<float>(config.d_model)));
                for (float& x : t.data) x = normal(rng);
                break;
            }
            case ParamKind::matrix: {
                const float bound = std::sqrt(6.0f / static_cast<float>(t.shape[0] + t.shape[1]));
                std::uniform_real_distribution<float> uniform(-bound, bound);
                for (float& x : t.data) x = uniform(rng);
                break;
            }
            case ParamKind::bias:
            case ParamKind::norm_bias: break;  // 0
        }
        w.set(spec.name, std::move(t));
    }
    return w;
}

}  // namespace attnlab
