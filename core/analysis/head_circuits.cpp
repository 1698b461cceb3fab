#include "analysis/head_circuits.h"

#include "forward/linear_map.h"
#include "forward/mechanisms/head_norm.h"
#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/positions.h"
#include "ops/attention.h"

#include <cmath>
#include <numeric>
#include <string>

namespace attnlab {

namespace {

int stack_layers(const ModelConfig& config, Stack stack) {
    if (stack == Stack::encoder) return config.has_encoder() ? config.n_encoder_layers : 0;
    return config.has_decoder() ? config.n_decoder_layers : 0;
}

Status check_head(const ModelConfig& config, const HeadRef& ref) {
    const char* stack = ref.stack == Stack::encoder ? "encoder" : "decoder";
    const int layers = stack_layers(config, ref.stack);
    if (layers == 0) return Error{std::string("this model has no ") + stack};
    if (ref.layer < 0 || ref.layer >= layers)
        return Error{"layer " + std::to_string(ref.layer) + " is outside the " + stack + "'s layers 0.." +
                     std::to_string(layers - 1)};
    if (ref.head < 0 || ref.head >= config.n_heads)
        return Error{"head " + std::to_string(ref.head) + " is outside heads 0.." + std::to_string(config.n_heads - 1)};
    return ok_status();
}

// The map's outputs for head h alone, without its bias: C -> D.
LinearParams head_slice(LinearParams map, int head, int d_head) {
    map.out_begin += static_cast<int64_t>(head) * d_head;
    map.n_out = d_head;
    map.bias.clear();
    return map;
}

LinearParams without_bias(LinearParams map) {
    map.bias.clear();
    return map;
}

// Head h's rows of Q (or its group's rows of K or V): (n, D), through qwen3's head norm when the model has one.
Tensor head_projection(const ModelConfig& config, const Weights& weights, const LinearParams& map, int head,
                       const std::optional<NormParams>& head_norm, const Mat& x) {
    Tensor y = linear_map_forward(weights, head_slice(map, head, config.d_head()), Tensor::from_matrix(x));
    if (head_norm) y = HeadNormMechanism(config).forward(weights, *head_norm, y);
    return y;
}

}  // namespace

std::vector<int> every_token(int vocab_size) {
    std::vector<int> ids(static_cast<size_t>(std::max(vocab_size, 0)));
    std::iota(ids.begin(), ids.end(), 0);
    return ids;
}

Result<Mat> head_token_inputs(const ModelConfig& config, const Weights& weights, const HeadRef& ref,
                              const std::vector<int>& ids) {
    if (auto st = check_head(config, ref); !st) return st.error();
    const EmbeddingParams embedding = embedding_params(config, ref.stack);
    const Tensor& table = weights.at(embedding.tokens);  // (V, C)
    const float scale = config.scale_embedding ? std::sqrt(static_cast<float>(config.d_model)) : 1.0f;
    Tensor x({static_cast<int64_t>(ids.size()), table.dim(1)});  // (n, C)
    for (size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] < 0 || ids[i] >= table.dim(0))
            return Error{"token id " + std::to_string(ids[i]) + " is outside the vocabulary 0.." +
                         std::to_string(table.dim(0) - 1)};
        const int64_t r = static_cast<int64_t>(i);
        row_as_f32(table, ids[i], x.row(r).data());  // the table may be BF16
        x.row(r) *= scale;
    }
    const NormMechanism norm(config);
    if (embedding.norm) x = norm.forward(weights, *embedding.norm, x);
    if (norm.before_sublayer()) x = norm.forward(weights, layer_params(config, ref.stack, ref.layer).norms.front(), x);
    return Mat(x.matrix());
}

Result<Mat> qk_circuit(const ModelConfig& config, const Weights& weights, const HeadRef& ref,
                       const std::vector<int>& query_ids, const std::vector<int>& key_ids, int offset) {
    if (config.qk_norm_across_heads)  // one head's query depends on every head's numbers
        return Error{"the QK circuit of one head is not defined when Q and K are normalised across the heads"};
    auto queries = head_token_inputs(config, weights, ref, query_ids);
    if (!queries) return queries.error();
    auto keys = head_token_inputs(config, weights, ref, key_ids);
    if (!keys) return keys.error();
    const AttentionParams& attention = layer_params(config, ref.stack, ref.layer).self_attn;
    const int D = config.d_head();
    const int kv = static_cast<int>(kv_head_of(ref.head, config.n_heads, config.kv_heads()));
    Tensor q = head_projection(config, weights, attention.q, ref.head, attention.q_norm, *queries);  // (nq, D)
    const Tensor k = head_projection(config, weights, attention.k, kv, attention.k_norm, *keys);     // (nk, D)
    // The key at position 0, the query `offset` after it, turned as this layer turns them (a local layer's base;
    // not at all in a NoPE layer).
    q = PositionMechanism(config).rotated_at(q, offset, ref.layer);
    // The scaled stage's multiplier: the family's own (T5's 1, Gemma's query_pre_attn_scalar^−½), else 1/√D.
    const float scale =
        config.attention_scale > 0.0f ? config.attention_scale : 1.0f / std::sqrt(static_cast<float>(D));
    return Mat(q.matrix() * k.matrix().transpose() * scale);
}

Result<Mat> ov_circuit(const ModelConfig& config, const Weights& weights, const HeadRef& ref,
                       const std::vector<int>& source_ids) {
    if (config.output_head == OutputHead::none)
        return Error{"this model has no output head to read the OV circuit through"};
    const Stack last = config.has_decoder() ? Stack::decoder : Stack::encoder;
    if (ref.stack != last)
        return Error{"the OV circuit is read through the output head: choose a head of the last stack"};
    auto sources = head_token_inputs(config, weights, ref, source_ids);
    if (!sources) return sources.error();
    const AttentionParams& attention = layer_params(config, ref.stack, ref.layer).self_attn;
    const int D = config.d_head();
    const int kv = static_cast<int>(kv_head_of(ref.head, config.n_heads, config.kv_heads()));
    const Tensor v = head_projection(config, weights, attention.v, kv, std::nullopt, *sources);  // (n, D)
    // W_O reads every head's D columns side by side: this head's values, zeros for the others.
    Tensor context({v.dim(0), config.attention_width()});  // (n, H·D)
    context.matrix().middleCols(static_cast<Eigen::Index>(ref.head) * D, D) = v.matrix();
    const Tensor written = linear_map_forward(weights, without_bias(attention.out), context);              // (n, C)
    return Mat(linear_map_forward(weights, without_bias(head_params(config).unembed), written).matrix());  // (n, V)
}

}  // namespace attnlab
