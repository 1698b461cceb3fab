// Parameter names and shapes per config, shape checks on load, and seeded initialisation.
#include "weights.h"

#include <cassert>
#include <cmath>
#include <random>

namespace attnlab {

namespace {

void add_linear(std::vector<ParamSpec>& out, const std::string& prefix, int64_t n_out, int64_t n_in) {
    out.push_back({prefix + ".weight", {n_out, n_in}});
    out.push_back({prefix + ".bias", {n_out}});
}

void add_norm(std::vector<ParamSpec>& out, const std::string& prefix, int64_t c) {
    out.push_back({prefix + ".weight", {c}});
    out.push_back({prefix + ".bias", {c}});
}

void add_attention(std::vector<ParamSpec>& out, const std::string& prefix, int64_t c) {
    out.push_back({prefix + ".in_proj_weight", {3 * c, c}});  // packed W_Q; W_K; W_V
    out.push_back({prefix + ".in_proj_bias", {3 * c}});
    add_linear(out, prefix + ".out_proj", c, c);
}

// An encoder-style block: self-attention + FFN (also the decoder_only block).
void add_self_block(std::vector<ParamSpec>& out, const std::string& prefix, const ModelConfig& c) {
    add_attention(out, prefix + ".self_attn", c.d_model);
    add_linear(out, prefix + ".linear1", c.d_ff, c.d_model);
    add_linear(out, prefix + ".linear2", c.d_model, c.d_ff);
    add_norm(out, prefix + ".norm1", c.d_model);
    add_norm(out, prefix + ".norm2", c.d_model);
}

void add_cross_block(std::vector<ParamSpec>& out, const std::string& prefix, const ModelConfig& c) {
    add_attention(out, prefix + ".self_attn", c.d_model);
    add_attention(out, prefix + ".multihead_attn", c.d_model);
    add_linear(out, prefix + ".linear1", c.d_ff, c.d_model);
    add_linear(out, prefix + ".linear2", c.d_model, c.d_ff);
    add_norm(out, prefix + ".norm1", c.d_model);
    add_norm(out, prefix + ".norm2", c.d_model);
    add_norm(out, prefix + ".norm3", c.d_model);
}

}  // namespace

std::string output_weight_name(const ModelConfig& c) {
    if (!c.tie_embeddings) return "generator.weight";
    return c.arch == Arch::encoder_only ? "src_embed.weight" : "tgt_embed.weight";
}

std::vector<ParamSpec> parameter_specs(const ModelConfig& c) {
    std::vector<ParamSpec> out;
    const int64_t C = c.d_model;
    if (c.has_encoder()) out.push_back({"src_embed.weight", {c.src_vocab_size, C}});
    if (c.has_decoder()) out.push_back({"tgt_embed.weight", {c.tgt_vocab_size, C}});
    if (c.positional == Positional::learned) out.push_back({"pos_embed.weight", {c.max_len, C}});
    for (int i = 0; i < c.n_encoder_layers; ++i) add_self_block(out, "encoder.layers." + std::to_string(i), c);
    if (c.has_encoder() && c.final_norm) add_norm(out, "encoder.norm", C);
    for (int i = 0; i < c.n_decoder_layers; ++i) {
        const std::string prefix = "decoder.layers." + std::to_string(i);
        if (c.arch == Arch::decoder_only) add_self_block(out, prefix, c);
        else add_cross_block(out, prefix, c);
    }
    if (c.has_decoder() && c.final_norm) add_norm(out, "decoder.norm", C);
    if (!c.tie_embeddings) out.push_back({"generator.weight", {c.output_vocab_size(), C}});
    return out;
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
    Tensor copy = *it->second;
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
    for (const auto& [name, tensor] : weights.all()) {
        bool known = false;
        for (const auto& spec : specs) known = known || spec.name == name;
        if (known) continue;
        if (name == "generator.bias") {
            const Shape want{config.output_vocab_size()};
            if (tensor->shape != want)
                return Error{"tensor 'generator.bias' has shape " + shape_string(tensor->shape) + ", config needs " +
                             shape_string(want)};
            continue;
        }
        if (name == "generator.weight" && config.tie_embeddings)
            return Error{"tensor 'generator.weight' is present but tie_embeddings is true"};
        return Error{"unexpected tensor '" + name + "' for this config"};
    }
    return ok_status();
}

Weights init_weights(const ModelConfig& config, uint64_t seed) {
    std::mt19937_64 rng(seed);
    Weights w;
    for (const auto& spec : parameter_specs(config)) {
        Tensor t(spec.shape);
        const std::string& n = spec.name;
        const bool is_norm = n.find("norm") != std::string::npos;
        const bool is_embedding = n.find("embed") != std::string::npos;
        if (is_norm) {
            if (n.ends_with(".weight")) std::fill(t.data.begin(), t.data.end(), 1.0f);
        } else if (is_embedding) {
            // N(0, 1/C): after the √C scaling a token vector has unit-size entries, like PE.
            std::normal_distribution<float> normal(0.0f, 1.0f / std::sqrt(static_cast<float>(config.d_model)));
            for (float& x : t.data) x = normal(rng);
        } else if (t.rank() == 2) {
            const float bound = std::sqrt(6.0f / static_cast<float>(t.shape[0] + t.shape[1]));
            std::uniform_real_distribution<float> uniform(-bound, bound);
            for (float& x : t.data) x = uniform(rng);
        }  // biases stay 0
        w.set(n, std::move(t));
    }
    return w;
}

}  // namespace attnlab
