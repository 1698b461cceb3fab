// The tensor names of each family's parameters, and how its linear maps are stored.
#include "param_names.h"

#include <algorithm>
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

// The unembedding C -> V: its own weight, or the (V, C) token table when tied (already out_in).
LinearParams unembed(const ModelConfig& c, const std::string& token_table, const std::string& untied,
                     const std::string& bias) {
    return LinearParams{c.tie_embeddings ? token_table : untied,
                        bias,
                        false,
                        WeightLayout::out_in,
                        c.d_model,
                        c.output_vocab_size(),
                        0,
                        c.output_vocab_size()};
}

// ---- torch.nn.Transformer: state_dict names plus src_embed, tgt_embed, pos_embed, generator ----

EmbeddingParams transformer_embedding(const ModelConfig& c, Stack stack) {
    return {stack == Stack::encoder ? "src_embed.weight" : "tgt_embed.weight",
            c.positional == Positional::learned ? "pos_embed.weight" : "", "", std::nullopt};
}

LayerParams transformer_layer(const ModelConfig& c, Stack stack, int i) {
    const int64_t C = c.d_model, F = c.d_ff;
    const std::string p =
        (stack == Stack::encoder ? "encoder" : "decoder") + std::string(".layers.") + std::to_string(i);
    auto attention = [&](const std::string& a) {
        return packed_attention(a + ".in_proj_weight", a + ".in_proj_bias", WeightLayout::out_in, C,
                                linear(a + ".out_proj", WeightLayout::out_in, C, C));
    };
    LayerParams l{attention(p + ".self_attn"),
                  std::nullopt,
                  linear(p + ".linear1", WeightLayout::out_in, C, F),
                  linear(p + ".linear2", WeightLayout::out_in, F, C),
                  {norm(p + ".norm1"), norm(p + ".norm2")}};
    if (stack == Stack::decoder && c.arch == Arch::encoder_decoder) {
        l.cross_attn = attention(p + ".multihead_attn");
        l.norms.push_back(norm(p + ".norm3"));
    }
    return l;
}

NormParams transformer_final_norm(const ModelConfig&, Stack stack) {
    return norm(stack == Stack::encoder ? "encoder.norm" : "decoder.norm");
}

HeadParams transformer_head(const ModelConfig& c) {
    HeadParams h{std::nullopt, std::nullopt,
                 unembed(c, transformer_embedding(c, last_stack(c)).tokens, "generator.weight", "generator.bias")};
    h.unembed.bias_optional = true;
    return h;
}

// ---- GPT-2: wte, wpe, h.{i}.*, ln_f, lm_head; Conv1D weights stored (in, out) ----

EmbeddingParams gpt2_embedding(const ModelConfig& c, Stack) {
    return {"wte.weight", c.positional == Positional::learned ? "wpe.weight" : "", "", std::nullopt};
}

LayerParams gpt2_layer(const ModelConfig& c, Stack, int i) {
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

NormParams gpt2_final_norm(const ModelConfig&, Stack) { return norm("ln_f"); }

HeadParams gpt2_head(const ModelConfig& c) {
    return {std::nullopt, std::nullopt, unembed(c, gpt2_embedding(c, Stack::decoder).tokens, "lm_head.weight", "")};
}

// ---- BERT: embeddings.*, encoder.layer.{i}.*, cls.predictions.* ----

EmbeddingParams bert_embedding(const ModelConfig& c, Stack) {
    return {"embeddings.word_embeddings.weight",
            c.positional == Positional::learned ? "embeddings.position_embeddings.weight" : "",
            c.type_vocab_size > 0 ? "embeddings.token_type_embeddings.weight" : "",
            c.embedding_norm ? std::optional(norm("embeddings.LayerNorm")) : std::nullopt};
}

LayerParams bert_layer(const ModelConfig& c, Stack, int i) {
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

NormParams bert_final_norm(const ModelConfig&, Stack) {
    assert(false && "validate_config refuses final_norm for BERT");
    return {};
}

HeadParams bert_head(const ModelConfig& c) {
    return {
        linear("cls.predictions.transform.dense", WeightLayout::out_in, c.d_model, c.d_model),
        norm("cls.predictions.transform.LayerNorm"),
        unembed(c, bert_embedding(c, Stack::encoder).tokens, "cls.predictions.decoder.weight", "cls.predictions.bias")};
}

// ---- The Llama template (llama, mistral, qwen2, qwen3): embed_tokens, layers.{i}.*, norm, lm_head ----
// The hub's files put "model." before all but lm_head; hf_tensor_names.cpp adds it.

EmbeddingParams llama_embedding(const ModelConfig&, Stack) { return {"embed_tokens.weight", "", "", std::nullopt}; }

LayerParams llama_layer(const ModelConfig& c, Stack, int i) {
    const int64_t C = c.d_model, F = c.d_ff, D = c.d_head(), Q = c.attention_width(), KV = int64_t{c.kv_heads()} * D;
    const std::string p = "layers." + std::to_string(i);
    auto map = [&](const std::string& name, int64_t n_in, int64_t n_out, bool bias) {
        LinearParams m = linear(p + name, WeightLayout::out_in, n_in, n_out);
        if (!bias) m.bias.clear();
        return m;
    };
    auto rms = [](const std::string& prefix) { return NormParams{prefix + ".weight", ""}; };
    AttentionParams attention{map(".self_attn.q_proj", C, Q, c.qkv_bias), map(".self_attn.k_proj", C, KV, c.qkv_bias),
                              map(".self_attn.v_proj", C, KV, c.qkv_bias), map(".self_attn.o_proj", Q, C, c.out_bias)};
    if (c.qk_norm) {
        attention.q_norm = rms(p + ".self_attn.q_norm");
        attention.k_norm = rms(p + ".self_attn.k_norm");
    }
    LayerParams l{std::move(attention),
                  std::nullopt,
                  map(".mlp.up_proj", C, F, c.ffn_bias),
                  map(".mlp.down_proj", F, C, c.ffn_bias),
                  {rms(p + ".input_layernorm"), rms(p + ".post_attention_layernorm")},
                  map(".mlp.gate_proj", C, F, c.ffn_bias)};
    return l;
}

// A mixture of experts' layer: the llama layer with its FFN's three maps replaced by the router and the experts
// (olmoe, qwen3_moe: mlp.gate and mlp.experts.{e}.*; granitemoe: block_sparse_moe.router.layer and the packed
// block_sparse_moe.input_linear (gate rows, then up rows, of each expert) and output_linear).
LayerParams moe_layer(const ModelConfig& c, Stack stack, int i) {
    LayerParams l = llama_layer(c, stack, i);
    if (!has_experts(c, i)) return l;
    const int64_t C = c.d_model, E = c.n_experts, F = c.expert_d_ff;
    const std::string p = "layers." + std::to_string(i);
    auto map = [](const std::string& weight, int64_t n_in, int64_t n_stored_out, int64_t out_begin, int64_t n_out) {
        return LinearParams{weight, "", false, WeightLayout::out_in, n_in, n_stored_out, out_begin, n_out};
    };
    ExpertParams x;
    const bool packed = c.family == Family::granitemoe;
    x.router = packed ? map(p + ".block_sparse_moe.router.layer.weight", C, E, 0, E)
                      : map(p + ".mlp.gate.weight", C, E, 0, E);
    for (int64_t e = 0; e < E; ++e) {
        if (packed) {
            const std::string in = p + ".block_sparse_moe.input_linear.weight";
            x.gate.push_back(map(in, C, E * 2 * F, e * 2 * F, F));
            x.up.push_back(map(in, C, E * 2 * F, e * 2 * F + F, F));
            x.down.push_back(map(p + ".block_sparse_moe.output_linear.weight", F, E * C, e * C, C));
        } else {
            const std::string ex = p + ".mlp.experts." + std::to_string(e);
            x.gate.push_back(map(ex + ".gate_proj.weight", C, F, 0, F));
            x.up.push_back(map(ex + ".up_proj.weight", C, F, 0, F));
            x.down.push_back(map(ex + ".down_proj.weight", F, C, 0, C));
        }
    }
    l.experts = std::move(x);
    l.ffn_in = l.ffn_out = LinearParams{};
    l.ffn_gate.reset();
    return l;
}

NormParams llama_final_norm(const ModelConfig&, Stack) { return {"norm.weight", ""}; }

HeadParams llama_head(const ModelConfig& c) {
    return {std::nullopt, std::nullopt, unembed(c, llama_embedding(c, Stack::decoder).tokens, "lm_head.weight", "")};
}

// ---- Marian (MarianMTModel): shared, {encoder,decoder}.layers.{i}.*, lm_head, final_logits_bias ----
// The hub's files put "model." before all but the head; hf_tensor_names.cpp adds it. One token table
// serves both stacks (share_encoder_decoder_embeddings) and, tied, the unembedding; final_logits_bias is
// stored (1, V) and read as the unembedding's bias.

EmbeddingParams marian_embedding(const ModelConfig&, Stack) { return {"shared.weight", "", "", std::nullopt}; }

LayerParams marian_layer(const ModelConfig& c, Stack stack, int i) {
    const int64_t C = c.d_model, F = c.d_ff;
    const std::string p =
        (stack == Stack::encoder ? "encoder" : "decoder") + std::string(".layers.") + std::to_string(i);
    auto attention = [&](const std::string& a) {
        auto map = [&](const char* name) { return linear(a + name, WeightLayout::out_in, C, C); };
        return AttentionParams{map(".q_proj"), map(".k_proj"), map(".v_proj"), map(".out_proj")};
    };
    LayerParams l{attention(p + ".self_attn"),
                  std::nullopt,
                  linear(p + ".fc1", WeightLayout::out_in, C, F),
                  linear(p + ".fc2", WeightLayout::out_in, F, C),
                  {norm(p + ".self_attn_layer_norm")}};
    if (stack == Stack::decoder) {
        l.cross_attn = attention(p + ".encoder_attn");
        l.norms.push_back(norm(p + ".encoder_attn_layer_norm"));
    }
    l.norms.push_back(norm(p + ".final_layer_norm"));
    return l;
}

NormParams marian_final_norm(const ModelConfig&, Stack) {
    assert(false && "validate_config refuses final_norm for Marian");
    return {};
}

HeadParams marian_head(const ModelConfig& c) {
    return {std::nullopt, std::nullopt,
            unembed(c, marian_embedding(c, Stack::decoder).tokens, "lm_head.weight", "final_logits_bias")};
}

// ---- Gemma 2 and Gemma 3 (text): the Llama template's names, with a norm before and after each sublayer ----
// input_layernorm and pre_feedforward_layernorm before the attention and the FFN; post_attention_layernorm and
// post_feedforward_layernorm of their outputs. Gemma 3's q_norm and k_norm as Qwen3's; lm_head tied to embed_tokens.

LayerParams gemma_layer(const ModelConfig& c, Stack stack, int i) {
    LayerParams l = llama_layer(c, stack, i);
    const std::string p = "layers." + std::to_string(i);
    l.norms = {{p + ".input_layernorm.weight", ""}, {p + ".pre_feedforward_layernorm.weight", ""}};
    l.post_norms = {{p + ".post_attention_layernorm.weight", ""}, {p + ".post_feedforward_layernorm.weight", ""}};
    return l;
}

// ---- BLOOM: word_embeddings(_layernorm), h.{i}.*, ln_f; query_key_value read as Q;Q… K… V blocks ----

EmbeddingParams bloom_embedding(const ModelConfig&, Stack) {
    return {"word_embeddings.weight", "", "", norm("word_embeddings_layernorm")};
}

// The hub stores query_key_value's rows per head, (H, 3, D); core/hf/hf_fused_qkv.h reorders them at load into
// three C-wide blocks (3, H, D), as a packed Q;K;V is read.
LayerParams bloom_layer(const ModelConfig& c, Stack, int i) {
    const int64_t C = c.d_model, F = c.d_ff;
    const std::string p = "h." + std::to_string(i);
    const auto out_in = WeightLayout::out_in;
    return {packed_attention(p + ".self_attention.query_key_value.weight", p + ".self_attention.query_key_value.bias",
                             out_in, C, linear(p + ".self_attention.dense", out_in, C, C)),
            std::nullopt,
            linear(p + ".mlp.dense_h_to_4h", out_in, C, F),
            linear(p + ".mlp.dense_4h_to_h", out_in, F, C),
            {norm(p + ".input_layernorm"), norm(p + ".post_attention_layernorm")}};
}

NormParams bloom_final_norm(const ModelConfig&, Stack) { return norm("ln_f"); }

HeadParams bloom_head(const ModelConfig& c) {
    return {std::nullopt, std::nullopt, unembed(c, "word_embeddings.weight", "lm_head.weight", "")};
}

// ---- T5 (T5ForConditionalGeneration): shared, {encoder,decoder}.block.{i}.layer.{k}.*, final_layer_norm, lm_head ----
// Sublayer k of block i is layer.k: layer.0.SelfAttention, the decoder's layer.1.EncDecAttention, then the FFN's
// DenseReluDense (wi, wo; gated: wi_0 the gate, wi_1 the up map, wo), each with its layer_norm (RMSNorm, no β). No
// biases anywhere; the token table serves both stacks and, tied, the unembedding.

EmbeddingParams t5_embedding(const ModelConfig&, Stack) { return {"shared.weight", "", "", std::nullopt}; }

LayerParams t5_layer(const ModelConfig& c, Stack stack, int i) {
    const int64_t C = c.d_model, F = c.d_ff, Q = c.attention_width();
    const std::string p = (stack == Stack::encoder ? "encoder" : "decoder") + std::string(".block.") +
                          std::to_string(i) + ".layer.";
    auto map = [](const std::string& name, int64_t n_in, int64_t n_out) {
        return LinearParams{name + ".weight", "", false, WeightLayout::out_in, n_in, n_out, 0, n_out};
    };
    auto rms = [&](int k) { return NormParams{p + std::to_string(k) + ".layer_norm.weight", ""}; };
    auto attention = [&](const std::string& a) {
        return AttentionParams{map(a + ".q", C, Q), map(a + ".k", C, Q), map(a + ".v", C, Q), map(a + ".o", Q, C)};
    };
    const bool cross = stack == Stack::decoder;
    const std::string ffn = p + (cross ? "2" : "1") + ".DenseReluDense";
    LayerParams l{attention(p + "0.SelfAttention"),
                  std::nullopt,
                  map(ffn + (c.gated_ffn ? ".wi_1" : ".wi"), C, F),
                  map(ffn + ".wo", F, C),
                  {rms(0)}};
    if (cross) {
        l.cross_attn = attention(p + "1.EncDecAttention");
        l.norms.push_back(rms(1));
    }
    l.norms.push_back(rms(cross ? 2 : 1));
    if (c.gated_ffn) l.ffn_gate = map(ffn + ".wi_0", C, F);
    return l;
}

NormParams t5_final_norm(const ModelConfig&, Stack stack) {
    return {stack == Stack::encoder ? "encoder.final_layer_norm.weight" : "decoder.final_layer_norm.weight", ""};
}

HeadParams t5_head(const ModelConfig& c) {
    return {std::nullopt, std::nullopt, unembed(c, t5_embedding(c, Stack::decoder).tokens, "lm_head.weight", "")};
}

// ---- ModernBERT (ModernBertForMaskedLM): embeddings.*, layers.{i}.*, final_norm, head.*, decoder ----
// The hub's files put "model." before all but head.* and decoder.*; hf_tensor_names.cpp adds it. Q;K;V packed in
// Wqkv's rows (3C, C); the FFN's Wi (2F, C) packs the activated half (rows 0…F−1, our gate) and the half that
// multiplies it (rows F…2F−1, our up map). LayerNorms have β only with norm_bias; layer 0 has no attn_norm (the
// identity, first_attention_norm false); the unembedding is the token table, with its own bias (decoder.bias).

EmbeddingParams modernbert_embedding(const ModelConfig& c, Stack) {
    return {"embeddings.tok_embeddings.weight", "", "",
            NormParams{"embeddings.norm.weight", c.norm_bias ? "embeddings.norm.bias" : ""}};
}

NormParams modernbert_norm(const ModelConfig& c, const std::string& prefix) {
    return {prefix + ".weight", c.norm_bias ? prefix + ".bias" : ""};
}

LayerParams modernbert_layer(const ModelConfig& c, Stack, int i) {
    const int64_t C = c.d_model, F = c.d_ff;
    const std::string p = "layers." + std::to_string(i);
    auto map = [](const std::string& prefix, bool bias, int64_t n_in, int64_t n_stored_out, int64_t begin,
                  int64_t n_out) {
        return LinearParams{prefix + ".weight", bias ? prefix + ".bias" : "", false, WeightLayout::out_in, n_in,
                            n_stored_out, begin, n_out};
    };
    const std::string qkv = p + ".attn.Wqkv";
    AttentionParams attention{map(qkv, c.qkv_bias, C, 3 * C, 0, C), map(qkv, c.qkv_bias, C, 3 * C, C, C),
                              map(qkv, c.qkv_bias, C, 3 * C, 2 * C, C), map(p + ".attn.Wo", c.out_bias, C, C, 0, C)};
    const std::string wi = p + ".mlp.Wi";
    const bool identity = i == 0 && !c.first_attention_norm;
    LayerParams l{std::move(attention),
                  std::nullopt,
                  map(wi, c.ffn_bias, C, 2 * F, F, F),  // the up map: Wi's second half
                  map(p + ".mlp.Wo", c.ffn_bias, F, C, 0, C),
                  {identity ? NormParams{} : modernbert_norm(c, p + ".attn_norm"), modernbert_norm(c, p + ".mlp_norm")},
                  map(wi, c.ffn_bias, C, 2 * F, 0, F)};  // the gate: Wi's first half, activated
    return l;
}

NormParams modernbert_final_norm(const ModelConfig& c, Stack) { return modernbert_norm(c, "final_norm"); }

HeadParams modernbert_head(const ModelConfig& c) {
    LinearParams dense = linear("head.dense", WeightLayout::out_in, c.d_model, c.d_model);
    if (!c.head_bias) dense.bias.clear();
    return {std::move(dense), modernbert_norm(c, "head.norm"),
            unembed(c, modernbert_embedding(c, Stack::encoder).tokens, "decoder.weight",
                    c.logits_bias ? "decoder.bias" : "")};
}

// One entry per family: where it keeps each part's parameters.
struct FamilyParamNames {
    EmbeddingParams (*embedding)(const ModelConfig&, Stack);
    LayerParams (*layer)(const ModelConfig&, Stack, int);
    NormParams (*final_norm)(const ModelConfig&, Stack);  // called only when config.final_norm
    HeadParams (*head)(const ModelConfig&);               // called only when output_head != none
};

constexpr FamilyParamNames kTransformerNames{transformer_embedding, transformer_layer, transformer_final_norm,
                                             transformer_head};
constexpr FamilyParamNames kGpt2Names{gpt2_embedding, gpt2_layer, gpt2_final_norm, gpt2_head};
constexpr FamilyParamNames kBertNames{bert_embedding, bert_layer, bert_final_norm, bert_head};
constexpr FamilyParamNames kLlamaNames{llama_embedding, llama_layer, llama_final_norm, llama_head};
constexpr FamilyParamNames kMoeNames{llama_embedding, moe_layer, llama_final_norm, llama_head};
constexpr FamilyParamNames kMarianNames{marian_embedding, marian_layer, marian_final_norm, marian_head};
constexpr FamilyParamNames kT5Names{t5_embedding, t5_layer, t5_final_norm, t5_head};
constexpr FamilyParamNames kBloomNames{bloom_embedding, bloom_layer, bloom_final_norm, bloom_head};
constexpr FamilyParamNames kGemmaNames{llama_embedding, gemma_layer, llama_final_norm, llama_head};
constexpr FamilyParamNames kModernBertNames{modernbert_embedding, modernbert_layer, modernbert_final_norm,
                                            modernbert_head};

const FamilyParamNames& param_names_of(Family family) {
    switch (family) {
        case Family::transformer: return kTransformerNames;
        case Family::gpt2: return kGpt2Names;
        case Family::bert: return kBertNames;
        case Family::modernbert: return kModernBertNames;
        case Family::llama:
        case Family::mistral:
        case Family::qwen2:
        case Family::qwen3:
        case Family::smollm3: return kLlamaNames;
        case Family::marian: return kMarianNames;
        case Family::t5: return kT5Names;
        case Family::bloom: return kBloomNames;
        case Family::gemma2:
        case Family::gemma3: return kGemmaNames;
        case Family::olmoe:
        case Family::qwen3_moe:
        case Family::granitemoe: return kMoeNames;
    }
    assert(false && "every family has an entry");
    return kTransformerNames;
}

}  // namespace

bool has_experts(const ModelConfig& c, int layer) {
    return c.n_experts > 0 && std::find(c.dense_layers.begin(), c.dense_layers.end(), layer) == c.dense_layers.end();
}

Shape LinearParams::weight_shape() const {
    return layout == WeightLayout::out_in ? Shape{n_stored_out, n_in} : Shape{n_in, n_stored_out};
}

EmbeddingParams embedding_params(const ModelConfig& c, Stack stack) {
    return param_names_of(c.family).embedding(c, stack);
}

LayerParams layer_params(const ModelConfig& c, Stack stack, int layer) {
    return param_names_of(c.family).layer(c, stack, layer);
}

std::optional<NormParams> final_norm_params(const ModelConfig& c, Stack stack) {
    if (!c.final_norm) return std::nullopt;
    return param_names_of(c.family).final_norm(c, stack);
}

std::string position_bias_table(const ModelConfig& c, Stack stack) {
    if (c.positional != Positional::relative_buckets) return "";
    return (stack == Stack::encoder ? "encoder" : "decoder") +
           std::string(".block.0.layer.0.SelfAttention.relative_attention_bias.weight");
}

HeadParams head_params(const ModelConfig& c) {
    assert(c.output_head != OutputHead::none);
    return param_names_of(c.family).head(c);
}

}  // namespace attnlab
