// The forward pass's matrix products, from the config alone (see forward_graph.cpp for the steps).
#include "forward/matmul_list.h"

#include "forward/mechanisms/feed_forward.h"

namespace attnlab {

namespace {

enum class KeysFrom { same_tokens, encoder_output };  // self-attention, or cross-attention's keys and values

// One attention sublayer in each of `n_layers` layers: `rows` queries over `keys` keys (C = d_model,
// H heads of D); `name` e.g. "decoder cross-attention".
void add_attention(std::vector<MatmulShape>& out, const ModelConfig& c, const std::string& name, int64_t rows,
                   int64_t keys, KeysFrom from, int64_t n_layers) {
    const int64_t C = c.d_model, H = c.n_heads, D = c.d_head(), Q = c.attention_width(), KV = c.kv_heads() * D;
    if (from == KeysFrom::same_tokens && Q == C && KV == C) {
        out.push_back({name + " Q, K, V maps", rows, C, C, 3 * n_layers, true});
    } else if (from == KeysFrom::same_tokens) {  // grouped-query attention, or H·D ≠ C
        out.push_back({name + " Q map", rows, C, Q, n_layers, true});
        out.push_back({name + " K, V maps", rows, C, KV, 2 * n_layers, true});
    } else {  // cross-attention: the queries from the decoder, the keys and values from the encoder's output
        out.push_back({name + " Q map", rows, C, C, n_layers, true});
        out.push_back({name + " K, V maps", keys, C, C, 2 * n_layers, true});
    }
    out.push_back({name + " QKᵀ, per head", rows, D, keys, H * n_layers});
    out.push_back({name + " weights·V, per head", rows, keys, D, H * n_layers});
    out.push_back({name + " output map", rows, Q, C, n_layers, true});
}

void add_ffn(std::vector<MatmulShape>& out, const ModelConfig& c, const std::string& stack, int64_t rows,
             int64_t n_layers) {
    out.push_back({stack + " FFN first map", rows, c.d_model, c.d_ff, n_layers, true});
    if (FeedForwardMechanism(c).gated()) out.push_back({stack + " FFN gate map", rows, c.d_model, c.d_ff, n_layers, true});
    out.push_back({stack + " FFN second map", rows, c.d_ff, c.d_model, n_layers, true});
}

}  // namespace

std::vector<MatmulShape> forward_matmuls(const ModelConfig& c, int64_t S, int64_t T) {
    std::vector<MatmulShape> out;
    if (c.has_encoder() && c.n_encoder_layers > 0) {
        add_attention(out, c, "encoder self-attention", S, S, KeysFrom::same_tokens, c.n_encoder_layers);
        add_ffn(out, c, "encoder", S, c.n_encoder_layers);
    }
    if (c.has_decoder() && c.n_decoder_layers > 0) {
        add_attention(out, c, "decoder self-attention", T, T, KeysFrom::same_tokens, c.n_decoder_layers);
        if (c.arch == Arch::encoder_decoder)
            add_attention(out, c, "decoder cross-attention", T, S, KeysFrom::encoder_output, c.n_decoder_layers);
        add_ffn(out, c, "decoder", T, c.n_decoder_layers);
    }
    const int64_t rows = c.has_decoder() ? T : S;  // the last stack's tokens
    if (c.output_head == OutputHead::transform) out.push_back({"head transform", rows, c.d_model, c.d_model, 1, true});
    if (c.output_head != OutputHead::none) out.push_back({"logits", rows, c.d_model, c.output_vocab_size(), 1, true});
    return out;
}

double total_flops(const std::vector<MatmulShape>& products) {
    double sum = 0;
    for (const auto& p : products) sum += p.flops();
    return sum;
}

}  // namespace attnlab
