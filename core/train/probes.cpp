// A training run's record besides its loss: gradient norms by layer, attention entropies by head.
#include "train/probes.h"

#include "analysis/head_summary.h"
#include "param_names.h"
#include "train/graph_run.h"
#include "train/transformer_grad.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <set>

namespace attnlab {

namespace {

void add_linear(std::vector<std::string>& names, const LinearParams& p) {
    names.push_back(p.weight);
    if (!p.bias.empty()) names.push_back(p.bias);
}

void add_norm(std::vector<std::string>& names, const std::optional<NormParams>& p) {
    if (!p || p->weight.empty()) return;  // ModernBERT's layer 0 attn_norm: the identity, no γ
    names.push_back(p->weight);
    if (!p->bias.empty()) names.push_back(p->bias);
}

void add_attention(std::vector<std::string>& names, const AttentionParams& p) {
    for (const LinearParams* l : {&p.q, &p.k, &p.v, &p.out}) add_linear(names, *l);
    add_norm(names, p.q_norm);
    add_norm(names, p.k_norm);
}

std::vector<std::string> layer_names(const ModelConfig& config, Stack stack, int layer) {
    const LayerParams p = layer_params(config, stack, layer);
    std::vector<std::string> names;
    add_attention(names, p.self_attn);
    if (p.cross_attn) add_attention(names, *p.cross_attn);
    if (!p.ffn_in.weight.empty()) add_linear(names, p.ffn_in);
    if (!p.ffn_out.weight.empty()) add_linear(names, p.ffn_out);
    if (p.ffn_gate) add_linear(names, *p.ffn_gate);
    if (p.experts) {  // Granite's packed experts share two weights: each once
        add_linear(names, p.experts->router);
        for (const auto* maps : {&p.experts->gate, &p.experts->up, &p.experts->down})
            for (const LinearParams& m : *maps)
                if (std::find(names.begin(), names.end(), m.weight) == names.end()) add_linear(names, m);
    }
    for (const NormParams& n : p.norms) add_norm(names, n);
    for (const NormParams& n : p.post_norms) add_norm(names, n);
    return names;
}

std::vector<std::string> embedding_names(const ModelConfig& config) {
    std::vector<std::string> names;
    for (Stack stack : {Stack::encoder, Stack::decoder}) {
        if (stack == Stack::encoder ? !config.has_encoder() : !config.has_decoder()) continue;
        const EmbeddingParams p = embedding_params(config, stack);
        for (const std::string* n : {&p.tokens, &p.positions, &p.token_types})
            if (!n->empty()) names.push_back(*n);
        add_norm(names, p.norm);
    }
    return names;
}

// The decoder's final norm and the output head (its transform, norm and unembedding).
std::vector<std::string> head_names(const ModelConfig& config) {
    std::vector<std::string> names;
    if (config.has_decoder()) add_norm(names, final_norm_params(config, Stack::decoder));
    if (config.output_head == OutputHead::none) return names;
    const HeadParams p = head_params(config);
    if (p.transform) add_linear(names, *p.transform);
    add_norm(names, p.transform_norm);
    add_linear(names, p.unembed);
    return names;
}

}  // namespace

std::vector<ParamGroup> param_groups(const ModelConfig& config, const Weights& weights) {
    // Each group's parameters as the family names them (param_names.h), in the forward pass's order.
    std::vector<std::pair<ParamGroupId, std::vector<std::string>>> wanted;
    wanted.push_back({{ParamGroupKind::embeddings, -1}, embedding_names(config)});
    if (config.has_encoder()) {
        for (int i = 0; i < config.n_encoder_layers; ++i)
            wanted.push_back({{ParamGroupKind::encoder_layer, i}, layer_names(config, Stack::encoder, i)});
        std::vector<std::string> norm;
        add_norm(norm, final_norm_params(config, Stack::encoder));
        wanted.push_back({{ParamGroupKind::encoder_norm, -1}, norm});
    }
    if (config.has_decoder())
        for (int i = 0; i < config.n_decoder_layers; ++i)
            wanted.push_back({{ParamGroupKind::decoder_layer, i}, layer_names(config, Stack::decoder, i)});
    wanted.push_back({{ParamGroupKind::output_head, -1}, head_names(config)});

    // A name in an earlier group (a tied token table, a packed Q;K;V read three times) is not listed again; names the
    // weights lack (an optional bias) are left out, and so are groups left empty.
    std::set<std::string> seen;
    std::vector<ParamGroup> groups;
    for (const auto& [id, names] : wanted) {
        ParamGroup g{id, {}};
        for (const std::string& name : names)
            if (weights.find(name) && seen.insert(name).second) g.params.push_back(name);
        std::sort(g.params.begin(), g.params.end());
        if (!g.params.empty()) groups.push_back(std::move(g));
    }
    return groups;
}

std::vector<float> group_norms(const std::vector<ParamGroup>& groups, const Gradients& grads) {
    std::vector<float> out;
    out.reserve(groups.size());
    for (const ParamGroup& g : groups) {
        double sum = 0.0;
        for (const std::string& name : g.params) {
            const auto it = grads.find(name);
            if (it == grads.end()) continue;
            for (float x : it->second.data) sum += static_cast<double>(x) * x;
        }
        out.push_back(static_cast<float>(std::sqrt(sum)));
    }
    return out;
}

std::vector<float> head_entropies(const Tensor& weights) {
    assert(weights.rank() == 3 || (weights.rank() == 4 && weights.dim(0) == 1));
    const Tensor* heads = &weights;
    Tensor squeezed;
    if (weights.rank() == 4) {  // (1, H, Tq, Tk) -> (H, Tq, Tk)
        squeezed = weights;
        squeezed.shape.erase(squeezed.shape.begin());
        heads = &squeezed;
    }
    std::vector<float> out;
    for (const HeadStats& s : head_stats(*heads)) out.push_back(s.entropy);
    return out;
}

std::vector<AttentionSite> pass_attention_sites(const ModelConfig& config) {
    std::vector<AttentionSite> sites;
    for (const Step& step : build_forward_steps(config))
        if (step.record.id.kind == StepKind::attention && step.record.id.stage == AttentionStage::weights)
            sites.push_back(step.record.id.site());
    return sites;
}

float uniform_entropy(AttentionUse use, int S, int T) {
    if (use != AttentionUse::decoder_self) return S > 0 ? std::log(static_cast<float>(S)) : 0.0f;
    double sum = 0.0;  // row i sees keys 0..i
    for (int i = 0; i < T; ++i) sum += std::log(static_cast<double>(i + 1));
    return T > 0 ? static_cast<float>(sum / T) : 0.0f;
}

Result<std::vector<SiteEntropy>> attention_entropies(const ModelConfig& config, const Weights& weights,
                                                     const TokenPair& pair) {
    const Batch batch = make_batch({pair}, config);
    if (auto st = check_batch(config, batch); !st) return st.error();
    ForwardInputs inputs;
    inputs.src_ids = batch.src;
    inputs.tgt_ids = batch.tgt_in;
    return attention_entropies(config, weights, inputs);
}

std::vector<SiteEntropy> attention_entropies(const ModelConfig& config, const Weights& weights,
                                             const ForwardInputs& sequence) {
    assert(sequence.batch == 1);
    GraphRun run(config);
    run.run(weights, sequence);
    const int S = static_cast<int>(sequence.src_ids.size()), T = static_cast<int>(sequence.tgt_ids.size());
    std::vector<SiteEntropy> out;
    for (size_t i = 0; i < run.steps().size(); ++i) {
        const StepId& id = run.steps()[i].record.id;
        if (id.kind != StepKind::attention || id.stage != AttentionStage::weights) continue;
        out.push_back({id.site(), head_entropies(run.output(i)), uniform_entropy(id.use, S, T)});
    }
    return out;
}

ProbeRecord::ProbeRecord(std::vector<ParamGroupId> groups, std::vector<AttentionSite> sites, int n_heads, int every)
    : groups_(std::move(groups)), sites_(std::move(sites)), n_heads_(n_heads), every_(std::max(every, 1)) {}

void ProbeRecord::add(int step, const std::vector<float>& grad_norms, const std::vector<SiteEntropy>& entropies) {
    assert(grad_norms.empty() || grad_norms.size() == groups_.size());
    assert(entropies.size() == sites_.size());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    steps_.push_back(step);
    for (size_t g = 0; g < groups_.size(); ++g) grad_norms_.push_back(grad_norms.empty() ? nan : grad_norms[g]);
    for (size_t s = 0; s < sites_.size(); ++s) {
        assert(entropies[s].site == sites_[s] && entropies[s].heads.size() == static_cast<size_t>(n_heads_));
        entropy_.insert(entropy_.end(), entropies[s].heads.begin(), entropies[s].heads.end());
    }
    if (uniform_.empty())
        for (const SiteEntropy& e : entropies) uniform_.push_back(e.uniform);
    if (steps_.size() < kMaxPoints) return;
    // Keep the points on the doubled stride (step 0 among them) and the newest.
    every_ *= 2;
    const size_t G = groups_.size(), E = sites_.size() * static_cast<size_t>(n_heads_);
    size_t kept = 0;
    for (size_t i = 0; i < steps_.size(); ++i) {
        if (steps_[i] % every_ != 0 && i + 1 != steps_.size()) continue;
        steps_[kept] = steps_[i];
        std::copy_n(grad_norms_.begin() + static_cast<std::ptrdiff_t>(i * G), G,
                    grad_norms_.begin() + static_cast<std::ptrdiff_t>(kept * G));
        std::copy_n(entropy_.begin() + static_cast<std::ptrdiff_t>(i * E), E,
                    entropy_.begin() + static_cast<std::ptrdiff_t>(kept * E));
        ++kept;
    }
    steps_.resize(kept);
    grad_norms_.resize(kept * G);
    entropy_.resize(kept * E);
}

}  // namespace attnlab
