// Forward and backward of the whole encoder-decoder over a batch, sublayer by sublayer.
#include "train/transformer_pass.h"

#include "ops/activation.h"
#include "ops/layer_norm.h"
#include "ops/linear.h"
#include "ops/positional.h"
#include "train/grad_ops.h"

#include <cassert>
#include <cmath>

namespace attnlab {

namespace {

void add_into(Tensor& into, const Tensor& x) {
    assert(into.shape == x.shape);
    into.matrix() += x.matrix();
}

}  // namespace

TransformerPass::TransformerPass(const ModelConfig& config, const Weights& weights, const TrainOptions* training)
    : config_(config), weights_(weights), training_(training), rng_(training ? training->dropout_seed : 0) {
    assert(config.arch == Arch::encoder_decoder);
}

const std::set<int>& TransformerPass::ablated(const AttentionSite& site) const {
    if (!training_) return no_heads_;
    auto it = training_->ablated_heads.find(site);
    return it == training_->ablated_heads.end() ? no_heads_ : it->second;
}

std::string TransformerPass::attention_params(const Sublayer& s) const {
    return s.layer + (s.kind == SublayerKind::cross_attention ? ".multihead_attn" : ".self_attn");
}

void TransformerPass::dropout(Tensor& x, Tensor& mask) {
    if (!training_ || training_->dropout <= 0.0f) return;
    const float p = training_->dropout, keep_scale = 1.0f / (1.0f - p);
    const auto threshold = static_cast<uint64_t>(static_cast<double>(p) * 9007199254740992.0);  // p · 2^53
    mask = Tensor(x.shape);
    for (size_t i = 0; i < x.data.size(); ++i) {
        const bool keep = (rng_() >> 11) >= threshold;  // 53 uniform bits
        mask.data[i] = keep ? keep_scale : 0.0f;
        x.data[i] *= mask.data[i];
    }
}

// x = E[id]·(√C or 1) + PE(pos), then dropout.   (B·L, C)
Tensor TransformerPass::embed(Stack& stack, const std::string& table) {
    const Tensor& E = weights_.at(table);  // (V, C)
    const int64_t C = config_.d_model, rows = static_cast<int64_t>(stack.ids.size());
    const float scale = config_.scale_embedding ? std::sqrt(static_cast<float>(C)) : 1.0f;
    Tensor pe;  // (L, C)
    if (config_.positional == Positional::sinusoidal) pe = sinusoidal_encoding(stack.L, C, config_.sinusoid_layout);
    const Tensor* learned = config_.positional == Positional::learned ? &weights_.at("pos_embed.weight") : nullptr;
    Tensor x({rows, C});
    for (int64_t r = 0; r < rows; ++r) {
        const int id = stack.ids[static_cast<size_t>(r)];
        assert(id >= 0 && id < E.dim(0));
        x.row(r) = E.row(id) * scale;
        const int64_t pos = r % stack.L;
        if (!pe.empty()) x.row(r) += pe.row(pos);
        if (learned) x.row(r) += learned->row(pos);
    }
    dropout(x, stack.embed_drop_mask);
    return x;
}

void TransformerPass::embed_backward(const Stack& stack, const std::string& table, const Tensor& dx, Gradients& grads) {
    const float scale = config_.scale_embedding ? std::sqrt(static_cast<float>(config_.d_model)) : 1.0f;
    Tensor d = dx;  // (B·L, C)
    if (!stack.embed_drop_mask.empty()) d.matrix().array() *= stack.embed_drop_mask.matrix().array();
    Tensor& dE = grads.at(table);
    Tensor* dP = config_.positional == Positional::learned ? &grads.at("pos_embed.weight") : nullptr;
    for (int64_t r = 0; r < d.dim(0); ++r) {
        dE.row(stack.ids[static_cast<size_t>(r)]) += d.row(r) * scale;
        if (dP) dP->row(r % stack.L) += d.row(r);
    }
}

Tensor TransformerPass::sublayer_function_forward(Sublayer& s, const Tensor& in, const AttentionShape& shape,
                                                  const KeyVisibility& visibility, const Tensor* memory) {
    if (s.kind == SublayerKind::feed_forward) {
        const std::string l1 = s.layer + ".linear1", l2 = s.layer + ".linear2";
        s.ffn_in = in;
        s.ffn_hidden = linear_forward(in, weights_.at(l1 + ".weight"), &weights_.at(l1 + ".bias"));        // (N, F)
        s.ffn_activation = activation_forward(s.ffn_hidden, config_.activation);                           // (N, F)
        return linear_forward(s.ffn_activation, weights_.at(l2 + ".weight"), &weights_.at(l2 + ".bias"));  // (N, C)
    }
    const Tensor* keys = s.kind == SublayerKind::cross_attention ? memory : nullptr;
    Tensor out = batched_attention_forward(weights_, attention_params(s), shape, in, keys, visibility, ablated(s.site),
                                           s.attention);
    if (training_ && (training_->head_disagreement > 0.0f || training_->query_disagreement > 0.0f)) {
        // λ · the mean overlap of two heads' rows + μ · the mean overlap of two rows of one head
        const AttentionOverlap o = attention_overlap(s.attention, shape, ablated(s.site));
        if (o.rows > 0) s.overlap.heads = training_->head_disagreement / static_cast<float>(o.rows);
        if (o.row_pairs > 0) s.overlap.queries = training_->query_disagreement / static_cast<float>(o.row_pairs);
        penalty_ += s.overlap.heads * o.across_heads + s.overlap.queries * o.across_queries;
    }
    return out;
}

// post-LN: y = LN(x + Dropout(Sublayer(x)));  pre-LN: y = x + Dropout(Sublayer(LN(x))).
Tensor TransformerPass::sublayer_forward(Sublayer& s, const Tensor& x, const AttentionShape& shape,
                                         const KeyVisibility& visibility, const Tensor* memory) {
    const std::string norm = s.layer + ".norm" + std::to_string(s.k);
    const Tensor& gain = weights_.at(norm + ".weight");
    const Tensor& bias = weights_.at(norm + ".bias");
    const float eps = config_.layer_norm_eps;
    Tensor out;
    if (config_.norm_first) {
        out = sublayer_function_forward(s, layer_norm_forward(x, gain, bias, eps), shape, visibility, memory);
    } else {
        out = sublayer_function_forward(s, x, shape, visibility, memory);
    }
    dropout(out, s.drop_mask);
    add_into(out, x);  // the residual: x + Sublayer(·)
    if (config_.norm_first) {
        s.norm_input = x;
        return out;
    }
    s.norm_input = out;
    return layer_norm_forward(out, gain, bias, eps);
}

Tensor TransformerPass::sublayer_backward(Sublayer& s, const Tensor& dy, const AttentionShape& shape, Tensor* dmemory,
                                          Gradients& grads) {
    const std::string norm = s.layer + ".norm" + std::to_string(s.k);
    const Tensor& gain = weights_.at(norm + ".weight");
    Tensor* dgain = &grads.at(norm + ".weight");
    Tensor* dbias = &grads.at(norm + ".bias");
    const float eps = config_.layer_norm_eps;

    // d(residual sum): post-LN goes back through the norm first.
    Tensor dsum = config_.norm_first ? dy : layer_norm_backward(s.norm_input, gain, eps, dy, dgain, dbias);
    Tensor dout = dsum;  // the sublayer's branch
    if (!s.drop_mask.empty()) dout.matrix().array() *= s.drop_mask.matrix().array();

    Tensor din;  // gradient at the sublayer function's input
    if (s.kind == SublayerKind::feed_forward) {
        const std::string l1 = s.layer + ".linear1", l2 = s.layer + ".linear2";
        const Tensor da = linear_backward(s.ffn_activation, weights_.at(l2 + ".weight"), dout,
                                          &grads.at(l2 + ".weight"), &grads.at(l2 + ".bias"));  // (N, F)
        const Tensor dh = activation_backward(s.ffn_hidden, da, config_.activation);            // (N, F)
        din = linear_backward(s.ffn_in, weights_.at(l1 + ".weight"), dh, &grads.at(l1 + ".weight"),
                              &grads.at(l1 + ".bias"));  // (N, C)
    } else {
        Tensor* dkeys = s.kind == SublayerKind::cross_attention ? dmemory : nullptr;
        din = batched_attention_backward(weights_, attention_params(s), shape, s.attention, ablated(s.site), dout,
                                         dkeys, grads, s.overlap);
    }
    Tensor dx = dsum;  // the residual path
    if (config_.norm_first) {
        add_into(dx, layer_norm_backward(s.norm_input, gain, eps, din, dgain, dbias));
    } else {
        add_into(dx, din);
    }
    return dx;
}

Tensor TransformerPass::final_norm_forward(Stack& stack, const std::string& norm, Tensor x) {
    if (!config_.final_norm) return x;
    stack.final_norm_input = std::move(x);
    return layer_norm_forward(stack.final_norm_input, weights_.at(norm + ".weight"), weights_.at(norm + ".bias"),
                              config_.layer_norm_eps);
}

Tensor TransformerPass::final_norm_backward(const Stack& stack, const std::string& norm, const Tensor& dy,
                                            Gradients& grads) {
    if (!config_.final_norm) return dy;
    return layer_norm_backward(stack.final_norm_input, weights_.at(norm + ".weight"), config_.layer_norm_eps, dy,
                               &grads.at(norm + ".weight"), &grads.at(norm + ".bias"));
}

Tensor TransformerPass::encode(const std::vector<int>& src, int S) {
    assert(S > 0 && src.size() % static_cast<size_t>(S) == 0);
    encoder_ = Stack{};
    penalty_ = 0.0;
    encoder_.ids = src;
    encoder_.L = S;
    const AttentionShape shape{static_cast<int>(src.size()) / S, S, S, config_.n_heads};
    const KeyVisibility visibility{&encoder_.ids, config_.pad_id, false};
    Tensor x = embed(encoder_, "src_embed.weight");  // (B·S, C)
    for (int i = 0; i < config_.n_encoder_layers; ++i) {
        const std::string layer = "encoder.layers." + std::to_string(i);
        for (auto [kind, k] : {std::pair{SublayerKind::self_attention, 1}, std::pair{SublayerKind::feed_forward, 2}}) {
            encoder_.sublayers.push_back(Sublayer{kind, layer, k, {AttentionUse::encoder_self, i}});
            x = sublayer_forward(encoder_.sublayers.back(), x, shape, visibility, nullptr);
        }
    }
    return final_norm_forward(encoder_, "encoder.norm", std::move(x));
}

Tensor TransformerPass::decode(const Tensor& memory, const std::vector<int>& src, int S, const std::vector<int>& tgt_in,
                               int T) {
    assert(T > 0 && tgt_in.size() % static_cast<size_t>(T) == 0);
    B_ = static_cast<int>(tgt_in.size()) / T;
    assert(src.size() == static_cast<size_t>(B_) * S && memory.dim(0) == int64_t{B_} * S);
    decoder_ = Stack{};
    decoder_.ids = tgt_in;
    decoder_.L = T;
    memory_ = memory;
    const std::vector<int> src_ids = src;
    const AttentionShape self_shape{B_, T, T, config_.n_heads}, cross_shape{B_, T, S, config_.n_heads};
    const KeyVisibility self_visibility{&decoder_.ids, config_.pad_id, true};
    const KeyVisibility cross_visibility{&src_ids, config_.pad_id, false};
    Tensor x = embed(decoder_, "tgt_embed.weight");  // (B·T, C)
    for (int i = 0; i < config_.n_decoder_layers; ++i) {
        const std::string layer = "decoder.layers." + std::to_string(i);
        decoder_.sublayers.push_back(Sublayer{SublayerKind::self_attention, layer, 1, {AttentionUse::decoder_self, i}});
        x = sublayer_forward(decoder_.sublayers.back(), x, self_shape, self_visibility, nullptr);
        decoder_.sublayers.push_back(Sublayer{SublayerKind::cross_attention, layer, 2, {AttentionUse::cross, i}});
        x = sublayer_forward(decoder_.sublayers.back(), x, cross_shape, cross_visibility, &memory_);
        decoder_.sublayers.push_back(Sublayer{SublayerKind::feed_forward, layer, 3, {AttentionUse::decoder_self, i}});
        x = sublayer_forward(decoder_.sublayers.back(), x, self_shape, self_visibility, nullptr);
    }
    decoder_output_ = final_norm_forward(decoder_, "decoder.norm", std::move(x));  // (B·T, C)
    return linear_forward(decoder_output_, weights_.at(output_weight_name(config_)),
                          weights_.find("generator.bias"));  // (B·T, V)
}

void TransformerPass::backward(const Tensor& dlogits, Gradients& grads) {
    const int S = encoder_.L, T = decoder_.L;
    assert(!decoder_.sublayers.empty() && dlogits.dim(0) == int64_t{B_} * T);
    Tensor* dbias = weights_.find("generator.bias") ? &grads.at("generator.bias") : nullptr;
    const std::string out_name = output_weight_name(config_);  // tgt_embed.weight when tied: the grads add up
    Tensor dx = linear_backward(decoder_output_, weights_.at(out_name), dlogits, &grads.at(out_name), dbias);
    dx = final_norm_backward(decoder_, "decoder.norm", dx, grads);

    Tensor dmemory(memory_.shape);  // (B·S, C): every cross-attention adds into it
    const AttentionShape self_shape{B_, T, T, config_.n_heads}, cross_shape{B_, T, S, config_.n_heads};
    for (auto it = decoder_.sublayers.rbegin(); it != decoder_.sublayers.rend(); ++it) {
        const bool cross = it->kind == SublayerKind::cross_attention;
        dx = sublayer_backward(*it, dx, cross ? cross_shape : self_shape, cross ? &dmemory : nullptr, grads);
    }
    embed_backward(decoder_, "tgt_embed.weight", dx, grads);

    dx = final_norm_backward(encoder_, "encoder.norm", dmemory, grads);
    const AttentionShape encoder_shape{B_, S, S, config_.n_heads};
    for (auto it = encoder_.sublayers.rbegin(); it != encoder_.sublayers.rend(); ++it)
        dx = sublayer_backward(*it, dx, encoder_shape, nullptr, grads);
    embed_backward(encoder_, "src_embed.weight", dx, grads);
}

std::vector<std::pair<AttentionSite, const Tensor*>> TransformerPass::attention_weights() const {
    std::vector<std::pair<AttentionSite, const Tensor*>> out;
    for (const Stack* stack : {&encoder_, &decoder_})
        for (const Sublayer& s : stack->sublayers)
            if (s.kind != SublayerKind::feed_forward) out.emplace_back(s.site, &s.attention.weights);
    return out;
}

}  // namespace attnlab
