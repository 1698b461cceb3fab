// Where each parameter of the forward pass lives, per family (ModelConfig::family): the name
// of its tensor in the weights and, for a linear map, the tensor's layout and which of its
// outputs the map uses. Each family is one entry in param_names.cpp (its embeddings, a layer,
// the final norm, the output head); the forward graph reads parameters through these, and
// parameter_specs lists them, so the two cannot disagree.
//   transformer  torch.nn.Transformer().state_dict() names + src_embed, tgt_embed, pos_embed, generator
//   gpt2         wte, wpe, h.{i}.ln_1, h.{i}.attn.c_attn (Q;K;V packed in its columns), h.{i}.attn.c_proj,
//                h.{i}.ln_2, h.{i}.mlp.c_fc, h.{i}.mlp.c_proj, ln_f, lm_head; Conv1D weights stored (in, out)
//   bert         embeddings.{word,position,token_type}_embeddings, embeddings.LayerNorm,
//                encoder.layer.{i}.attention.self.{query,key,value}, .attention.output.{dense,LayerNorm},
//                .intermediate.dense, .output.{dense,LayerNorm}, cls.predictions.{transform.*,decoder,bias}
//   llama, mistral, qwen2, qwen3 (the Llama template)
//                embed_tokens, layers.{i}.input_layernorm, layers.{i}.self_attn.{q,k,v,o}_proj (and q_norm,
//                k_norm), layers.{i}.post_attention_layernorm, layers.{i}.mlp.{gate,up,down}_proj, norm, lm_head
//   olmoe, qwen3_moe (the Llama template with experts)
//                layers.{i}.mlp.gate (the router), layers.{i}.mlp.experts.{e}.{gate,up,down}_proj; a qwen3_moe dense
//                layer keeps layers.{i}.mlp.{gate,up,down}_proj
//   gemma2, gemma3  the Llama template's names; layers.{i}.{input,pre_feedforward}_layernorm before the sublayers,
//                .{post_attention,post_feedforward}_layernorm of their outputs; lm_head tied to embed_tokens
//   bloom        word_embeddings, word_embeddings_layernorm, h.{i}.input_layernorm,
//                h.{i}.self_attention.{query_key_value,dense}, h.{i}.post_attention_layernorm,
//                h.{i}.mlp.{dense_h_to_4h,dense_4h_to_h}, ln_f, lm_head (tied)
//   marian       shared (both stacks' token table), {encoder,decoder}.layers.{i}.self_attn.{q,k,v,out}_proj,
//                .self_attn_layer_norm, decoder's .encoder_attn.{q,k,v,out}_proj and .encoder_attn_layer_norm,
//                .fc1, .fc2, .final_layer_norm, lm_head (when untied), final_logits_bias
//   modernbert   embeddings.{tok_embeddings,norm}, layers.{i}.attn_norm (none in layer 0), .attn.Wqkv (Q;K;V packed
//                in its rows), .attn.Wo, .mlp_norm, .mlp.Wi (gate;up packed in its rows), .mlp.Wo, final_norm,
//                head.{dense,norm}, decoder (tied to tok_embeddings; its bias)
//   t5           shared, {encoder,decoder}.block.{i}.layer.0.SelfAttention.{q,k,v,o} (block 0's also
//                relative_attention_bias), .layer.{k}.layer_norm, decoder's .layer.1.EncDecAttention.{q,k,v,o},
//                the FFN's .layer.{1,2}.DenseReluDense.{wi,wo} (gated: wi_0, wi_1, wo), final_layer_norm, lm_head
#pragma once

#include "config.h"
#include "tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab {

enum class WeightLayout { out_in, in_out };  // nn.Linear's (out, in); GPT-2's Conv1D (in, out)

// One linear map y = x·Aᵀ + b, A (n_out, n_in): the outputs [out_begin, out_begin + n_out) of a
// stored weight, read in its own layout (a packed Q;K;V holds three such ranges of C).
struct LinearParams {
    std::string weight;
    std::string bias;            // "" when the map has none
    bool bias_optional = false;  // read when present (our generator.bias)
    WeightLayout layout = WeightLayout::out_in;
    int64_t n_in = 0;
    int64_t n_stored_out = 0;  // outputs the stored tensor holds: 3C for a packed Q;K;V
    int64_t out_begin = 0, n_out = 0;

    Shape weight_shape() const;  // (n_stored_out, n_in) for out_in, (n_in, n_stored_out) for in_out
};

struct NormParams {
    std::string weight, bias;  // γ, β (C,); an RMSNorm has no β ("")
};

struct AttentionParams {
    LinearParams q, k, v, out;                           // q: C -> H·D; k, v: C -> H_kv·D; out: H·D -> C
    std::optional<NormParams> q_norm = {}, k_norm = {};  // qwen3: γ (D,) of the RMSNorm of each head of Q and K
};

// A mixture of experts' FFN: the router C -> E and each expert's SwiGLU, expert e's maps at [e] (C -> F_e for the
// gate and the up projection, F_e -> C down). Granite's packed experts are ranges of one (E·2F, C) and one (E·C, F)
// weight, which the hub stores as (E, 2F, C) and (E, C, F).
struct ExpertParams {
    LinearParams router;
    std::vector<LinearParams> gate, up, down;
};

// One layer: its attentions, its FFN, and the LayerNorm of each sublayer (norms[k − 1] for sublayer k).
struct LayerParams {
    AttentionParams self_attn;
    std::optional<AttentionParams> cross_attn;  // an encoder_decoder's decoder layers
    LinearParams ffn_in, ffn_out;               // C -> F (a gated FFN's up), F -> C (its down); unnamed with experts
    std::vector<NormParams> norms;
    std::optional<LinearParams> ffn_gate = {};  // a gated FFN's gate C -> F
    std::vector<NormParams> post_norms = {};    // Gemma's norm of sublayer k's output at [k − 1]; empty: none
    std::optional<ExpertParams> experts = {};   // a mixture of experts' layer, in place of the three maps above
};

// The input of a stack: token table (V, C), learned positions (max_len, C), token types
// (type_vocab_size, C), and the LayerNorm over their sum; empty names for what the config lacks.
struct EmbeddingParams {
    std::string tokens, positions, token_types;
    std::optional<NormParams> norm;
};

struct HeadParams {
    std::optional<LinearParams> transform;     // output_head transform: dense C -> C
    std::optional<NormParams> transform_norm;  // and its LayerNorm
    LinearParams unembed;                      // C -> V; its weight is the token table when tied
};

// Whether a layer's FFN is a mixture of experts: the config has experts and the layer is not one of its dense_layers.
bool has_experts(const ModelConfig& config, int layer);

EmbeddingParams embedding_params(const ModelConfig& config, Stack stack);
LayerParams layer_params(const ModelConfig& config, Stack stack, int layer);
std::optional<NormParams> final_norm_params(const ModelConfig& config, Stack stack);
HeadParams head_params(const ModelConfig& config);  // asserts output_head != none
// T5's relative_attention_bias of a stack (relative_buckets, H), which block 0 holds and every block's
// self-attention reads; "" without Positional::relative_buckets.
std::string position_bias_table(const ModelConfig& config, Stack stack);

}  // namespace attnlab
