// The tensor names of each family's parameters, and how its linear maps are stored.
#include "param_names.h"

#include <cassert>

namespace attnlab {

namespace {

LinearParams linear(const std::string& prefix, WeightLayout layout, int64_t n_in, int64_t n_out) {
    return {prefix + ".weight", prefix + ".bias", false, layout, n_in, n_out, 0, n_out};
}

NormParams norm(const std::string& prefix) { return {prefix + ".weight", prefix + ".bias"}; }

// Q, K and V as the three C-wide output ranges of one packed weight (3C outputs).
AttentionParams packed_attention(const std::string& weight, const std::string& bias, WeightLayout layout, int64_t C,
                                 LinearParams out) {
    auto part = [&](int which) { return LinearParams{weight, bias, false, layout, C, 3 * C, which * C, C}; };
    return {part(0), part(1), part(2), std::move(out)};
}

LayerParams transformer_layer(const ModelConfig& c, Stack stack, int i) {
    const int64_t C = c.d_model, F = c.d_ff;
    const std::string p = (stack == Stack::encoder ? "encoder" : "decoder") + std::string(".layers.") + std::to_string(i);
    auto attention = [&](const std::string& a) {
        return packed_attention(a + ".in_proj_weight", a + ".in_proj_bias", WeightLayout::out_in, C,
                                linear(a + ".out_proj", WeightLayout::out_in, C, C));
    };
    LayerParams l{attention(p + ".self_attn"), std::nullopt, linear(p + ".linear1", WeightLayout::out_in, C, F),
                  linear(p + ".linear2", WeightLayout::out_in, F, C), {norm(p + ".norm1"), norm(p + ".norm2")}};
    if (stack == Stack::decoder && c.arch == Arch::encoder_decoder) {
        l.cross_attn = attention(p + ".multihead_attn");
        l.norms.push_back(norm(p + ".norm3"));
    }
    return l;
}

LayerParams gpt2_layer(const ModelConfig& c, int i) {
    const int64_t C = c.d_model, F = c.d_ff;
    const std::string p = "h." + std::to_string(i);
    const auto conv1d = WeightLayout::in_out;
    return {packed_attention(p + ".attn.c_attn.weight", p + ".attn.c_attn.bias", conv1d, C,
                             linear(p + ".attn.c_proj", conv1d, C, C)),
            std::nullopt,
            linear(p + ".mlp.c_fc", conv1d, C, F),
            linear(p + ".mlp.c_proj", conv1d, F, C),
            {norm(p + ".ln_1"), norm(p + ".ln_2")}};
}

LayerParams bert_layer(const ModelConfig& c, int i) {
    const int64_t C = c.d_model, F = c.d_ff;
    const std::string p = "encoder.layer." + std::to_string(i);
    const auto dense = [&](const std::string& name, int64_t n_in, int64_t n_out) {
        return linear(p + name, WeightLayout::out_in, n_in, n_out);
    };
    return {{dense(".attention.self.query", C, C), dense(".attention.self.key", C, C),
             dense(".attention.self.value", C, C), dense(".attention.output.dense", C, C)},
            std::nullopt,
            dense(".intermediate.dense", C, F),
            dense(".output.dense", F, C),
            {norm(p + ".attention.output.LayerNorm"), norm(p + ".output.LayerNorm")}};
}

}  // namespace

Shape LinearParams::weight_shape() const {
    return layout == WeightLayout::out_in ? Shape{n_stored_out, n_in} : Shape{n_in, n_stored_out};
}

EmbeddingParams embedding_params(const ModelConfig& c, Stack stack) {
    const bool learned = c.positional == Positional::learned;
    switch (c.family) {
        case Family::transformer:
            return {stack == Stack::encoder ? "src_embed.weight" : "tgt_embed.weight", learned ? "pos_embed.weight" : "",
                    "", std::nullopt};
        case Family::gpt2:
            return {"wte.weight", learned ? "wpe.weight" : "", "", std::nullopt};
        case Family::bert:
            return {"embeddings.word_embeddings.weight", learned ? "embeddings.position_embeddings.weight" : "",
                    c.type_vocab_size > 0 ? "embeddings.token_type_embeddings.weight" : "",
                    c.embedding_norm ? std::optional(norm("embeddings.LayerNorm")) : std::nullopt};
    }
    return {};
}

LayerParams layer_params(const ModelConfig& c, Stack stack, int layer) {
    switch (c.family) {
        case Family::transformer: return transformer_layer(c, stack, layer);
        case Family::gpt2: return gpt2_layer(c, layer);
        case Family::bert: return bert_layer(c, layer);
    }
    return {};
}

std::optional<NormParams> final_norm_params(const ModelConfig& c, Stack stack) {
    if (!c.final_norm) return std::nullopt;
    switch (c.family) {
        case Family::transformer: return norm(stack == Stack::encoder ? "encoder.norm" : "decoder.norm");
        case Family::gpt2: return norm("ln_f");
        case Family::bert: break;  // validate_config refuses final_norm for BERT
    }
    assert(false && "no final LayerNorm in this family");
    return std::nullopt;
}

HeadParams head_params(const ModelConfig& c) {
    assert(c.output_head != OutputHead::none);
    const int64_t C = c.d_model, V = c.output_vocab_size();
    const Stack output_stack = c.arch == Arch::encoder_only ? Stack::encoder : Stack::decoder;
    const std::string tied = embedding_params(c, output_stack).tokens;  // (V, C): already out_in
    const auto unembed = [&](const std::string& untied, const std::string& bias) {
        return LinearParams{c.tie_embeddings ? tied : untied, bias, false, WeightLayout::out_in, C, V, 0, V};
    };
    switch (c.family) {
        case Family::transformer: {
            HeadParams h{std::nullopt, std::nullopt, unembed("generator.weight", "generator.bias")};
            h.unembed.bias_optional = true;
            return h;
        }
        case Family::gpt2:
            return {std::nullopt, std::nullopt, unembed("lm_head.weight", "")};
        case Family::bert:
            return {linear("cls.predictions.transform.dense", WeightLayout::out_in, C, C),
                    norm("cls.predictions.transform.LayerNorm"),
                    unembed("cls.predictions.decoder.weight", "cls.predictions.bias")};
    }
    return {};
}

}  // namespace attnlab
