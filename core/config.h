// ModelConfig: the shape and switches of a Transformer, read from and written to JSON
// with exactly the field names of the model file's __metadata__["config"].
#pragma once

#include "result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

enum class Arch { encoder_decoder, encoder_only, decoder_only };
// One of a model's stacks of layers: an encoder_decoder has both, encoder_only and decoder_only one each.
enum class Stack { encoder, decoder };
enum class Activation { relu, gelu, gelu_tanh, silu };  // gelu is the erf form; silu = x·σ(x) (swish)
// rotary: no position is added to the embeddings; q and k are rotated in each attention (RoPE).
// alibi: a fixed penalty, −slope_h·(distance), added to each head's scores (BLOOM).
// relative_buckets: a learned bias per head and bucket of the key's offset from the query, added to the scores
// (T5; the first layer of each stack holds the table, every layer uses it).
enum class Positional { sinusoidal, learned, none, rotary, alibi, relative_buckets };
// Whose tensor names and weight layouts a model uses (param_names.h): ours (torch.nn.Transformer's
// state_dict), or those of a Hugging Face file of that model_type (core/hf reads their folders).
// llama, mistral, qwen2 and qwen3 share the Llama template (param_names.cpp) and differ in switches;
// marian is the paper's encoder-decoder as Helsinki-NLP's opus-mt translators have it. The 2026 zoo: t5
// (T5 v1.0 and Flan-T5's v1.1), bloom, smollm3, gemma2, gemma3 (text), and the mixtures of experts olmoe,
// qwen3_moe and granitemoe, and the encoder modernbert.
enum class Family {
    transformer,
    gpt2,
    bert,
    llama,
    mistral,
    qwen2,
    qwen3,
    marian,
    t5,
    bloom,
    smollm3,
    gemma2,
    gemma3,
    olmoe,
    qwen3_moe,
    granitemoe,
    modernbert
};
// Where the sinusoidal encoding puts its sines and cosines of frequency i (ops/positional.h):
// interleaved at columns 2i and 2i + 1 (the paper's), or halves: sines in the first ⌈C/2⌉ columns and
// cosines in the rest (Marian's).
enum class SinusoidLayout { interleaved, halves };
// layer_norm: (x − mean)/√(var + ε)·γ + β.  rms_norm: x/√(mean(x²) + ε)·γ (the Llama template's, T5's).
// rms_norm_plus_one: x/√(mean(x²) + ε)·(1 + γ), γ stored as the file has it (Gemma's).
enum class NormKind { layer_norm, rms_norm, rms_norm_plus_one };
enum class RopeScaling { none, linear, llama3 };
// linear: logits = x·Wᵀ + b.  transform: dense + activation + LayerNorm before it (BERT's MLM
// head).  none: the model ends at its stack output (a BERT file without a head).
enum class OutputHead { linear, transform, none };

// A config struct lists its JSON fields once, in fields(): v("name", member) for a required field, always
// written and an error when missing; with a rule after it for an optional one, which reads as its default
// when missing. config.cpp's reader, writer and list of known keys all visit it.
struct OmittedAtDefault {};  // written only when not the default
struct WrittenIf {           // written only when `when`
    bool when;
};
inline constexpr OmittedAtDefault kOmittedAtDefault{};

// Rotary position embeddings (Positional::rotary): pair i of a head, (x[i], x[i + D/2]), turns by
// pos·θ_i, θ_i = theta^(−2i/D), as rescaled by `scaling` (ops/rotary.h has the formulas).
struct RopeConfig {
    float theta = 10000.0f;
    RopeScaling scaling = RopeScaling::none;
    float factor = 1.0f;               // linear, llama3: how much longer the context is made
    float low_freq_factor = 1.0f;      // llama3: wavelengths above original_max_position / this are divided by factor
    float high_freq_factor = 4.0f;     // llama3: wavelengths below original_max_position / this are kept
    int original_max_position = 8192;  // llama3: the context the model was first trained on

    template <class Visit>
    void fields(Visit&& v) {
        v("theta", theta);
        v("scaling", scaling);
        v("factor", factor, WrittenIf{scaling != RopeScaling::none});
        v("low_freq_factor", low_freq_factor, WrittenIf{scaling == RopeScaling::llama3});
        v("high_freq_factor", high_freq_factor, WrittenIf{scaling == RopeScaling::llama3});
        v("original_max_position", original_max_position, WrittenIf{scaling == RopeScaling::llama3});
    }
    bool operator==(const RopeConfig&) const = default;
};

struct ModelConfig {
    Arch arch = Arch::encoder_decoder;
    int d_model = 64;  // C
    int n_heads = 4;   // H; D = C / H
    int n_encoder_layers = 2;
    int n_decoder_layers = 2;
    int d_ff = 256;  // F
    Activation activation = Activation::relu;
    bool norm_first = false;  // false: LayerNorm(x + Sublayer(x)) (paper); true: x + Sublayer(LayerNorm(x))
    bool final_norm = true;   // a LayerNorm after each stack, as torch.nn.Transformer has
    Positional positional = Positional::sinusoidal;
    SinusoidLayout sinusoid_layout = SinusoidLayout::interleaved;
    int max_len = 64;
    bool scale_embedding = true;  // multiply embeddings by √C
    bool tie_embeddings = false;  // the output projection reuses the (target) embedding
    float layer_norm_eps = 1e-5f;
    int src_vocab_size = 0;
    int tgt_vocab_size = 0;
    // Our models have all four in their vocabulary. A Hugging Face family's may be -1: the model
    // has no such token (GPT-2 has no padding token, so no id is ever read as padding).
    int pad_id = 0, sos_id = 1, eos_id = 2, unk_id = 3;
    Family family = Family::transformer;
    int type_vocab_size = 0;      // token-type (segment) embeddings added to the source, as BERT's; 0: none
    bool embedding_norm = false;  // a LayerNorm over the summed embeddings, as BERT's
    OutputHead output_head = OutputHead::linear;
    // The Llama template's switches; each default is what the families above have.
    int n_kv_heads = 0;  // H_kv: the heads of K and V (grouped-query attention, H_kv divides H); 0: H
    int head_dim = 0;    // D when the family gives it apart from C/H (H·D may differ from C); 0: C/H
    NormKind norm = NormKind::layer_norm;
    bool gated_ffn = false;  // FFN(x) = (act(x·W_gateᵀ) ⊙ x·W_upᵀ)·W_downᵀ (SwiGLU with silu); else act(x·W_1ᵀ)·W_2ᵀ
    bool qkv_bias = true;    // biases on Q, K and V
    bool out_bias = true;    // a bias on W_O
    bool ffn_bias = true;    // biases on the FFN's linear maps
    bool qk_norm = false;    // an RMSNorm over each head of Q and K before the rotation (qwen3)
    // A decoder query sees only the keys less than this many positions back; an encoder query, the keys at most
    // sliding_window/2 away on either side (ModernBERT's local_attention); 0: all.
    int sliding_window = 0;
    RopeConfig rope;         // Positional::rotary
    // What differs from layer to layer (layer indices of the one stack of a decoder_only or encoder_only model).
    // local_layers: the layers that see only sliding_window keys back (Gemma's and ModernBERT's local layers);
    // empty: every layer does when sliding_window > 0 (Mistral's).  no_rope_layers: layers without RoPE
    // (SmolLM3's NoPE layers).  local_rope_theta: the RoPE base of the local layers, with no scaling (Gemma 3's
    // rope_local_base_freq); 0: the local layers turn as the global ones.
    std::vector<int> local_layers;
    std::vector<int> no_rope_layers;
    float local_rope_theta = 0.0f;
    // Gemma's: a norm of each sublayer's output before it joins the residual (post_attention_layernorm,
    // post_feedforward_layernorm), beside the norm of its input.
    bool post_sublayer_norm = false;
    // ModernBERT's: LayerNorms without β (norm_bias false), and no norm before the first layer's attention (its
    // attn_norm is the identity: the embeddings' norm has just run).
    bool norm_bias = true;
    bool first_attention_norm = true;
    // The biases of an MLM head (output_head transform): of its dense map C -> C (ModernBERT's classifier_bias) and
    // of the unembedding (decoder_bias). BERT has both; only ModernBERT's files can turn them off.
    bool head_bias = true;
    bool logits_bias = true;
    bool qk_norm_across_heads = false;  // qk_norm over all of Q's (and K's) heads at once (OLMoE), not each head
    // The scores' multiplier before the softmax: 0 is 1/√D. T5's is 1; Gemma's query_pre_attn_scalar^−½;
    // Granite's attention_multiplier.
    float attention_scale = 0.0f;
    // Soft-capping, c·tanh(x/c) (Gemma 2): of each attention's scores before the mask, and of the logits; 0: none.
    float attention_softcap = 0.0f;
    float logit_softcap = 0.0f;
    // Positional::relative_buckets (T5): how many buckets of offsets, and the offset beyond which all share the last.
    int relative_buckets = 32;
    int relative_max_distance = 128;
    // Constant multipliers: of the token embeddings (Granite's embedding_multiplier), of each sublayer's output
    // as it joins the residual (residual_multiplier), and of the logits (T5's tied d_model^−½, Granite's
    // 1/logits_scaling).
    float embedding_multiplier = 1.0f;
    float residual_multiplier = 1.0f;
    float logit_scale = 1.0f;
    // A mixture of experts (olmoe, qwen3_moe, granitemoe): n_experts FFNs of expert_d_ff units each, of which a
    // router picks experts_per_token for each token; normalize_routing rescales the chosen weights to sum to 1.
    // dense_layers keep one FFN of d_ff units (Qwen3-MoE's mlp_only_layers). 0 experts: no mixture.
    int n_experts = 0;
    int experts_per_token = 0;
    int expert_d_ff = 0;
    bool normalize_routing = false;
    std::vector<int> dense_layers;
    // Ids that generation never picks (greedy, sampled or translated), as a Hugging Face config's single-token
    // bad_words_ids: Marian's <pad>, which is also its decoder's first token. The model still scores them.
    std::vector<int> never_generated;

    int d_head() const { return head_dim > 0 ? head_dim : d_model / n_heads; }  // D
    int kv_heads() const { return n_kv_heads > 0 ? n_kv_heads : n_heads; }      // H_kv
    int attention_width() const { return n_heads * d_head(); }                  // H·D: Q's width, concat's
    bool has_encoder() const { return arch != Arch::decoder_only; }
    bool has_decoder() const { return arch != Arch::encoder_only; }
    // The id the target padding mask treats as padding: none (-1) when the decoder starts from the padding
    // token itself (Marian's decoder_start_token_id is its pad id, and its decoder is given no padding mask).
    int target_pad_id() const { return sos_id == pad_id ? -1 : pad_id; }
    // The vocabulary the output projection predicts over.
    int output_vocab_size() const { return arch == Arch::encoder_only ? src_vocab_size : tgt_vocab_size; }

    // The reader's order: of several missing or malformed fields, an error names the first listed.
    template <class Visit>
    void fields(Visit&& v) {
        v("arch", arch);
        v("d_model", d_model);
        v("n_heads", n_heads);
        v("n_encoder_layers", n_encoder_layers);
        v("n_decoder_layers", n_decoder_layers);
        v("d_ff", d_ff);
        v("activation", activation);
        v("norm_first", norm_first);
        v("final_norm", final_norm);
        v("positional", positional);
        v("max_len", max_len);
        v("scale_embedding", scale_embedding);
        v("tie_embeddings", tie_embeddings);
        v("layer_norm_eps", layer_norm_eps);
        v("src_vocab_size", src_vocab_size);
        v("tgt_vocab_size", tgt_vocab_size);
        v("pad_id", pad_id);
        v("sos_id", sos_id);
        v("eos_id", eos_id);
        v("unk_id", unk_id);
        v("family", family, kOmittedAtDefault);
        v("type_vocab_size", type_vocab_size, kOmittedAtDefault);
        v("embedding_norm", embedding_norm, kOmittedAtDefault);
        v("output_head", output_head, kOmittedAtDefault);
        v("n_kv_heads", n_kv_heads, kOmittedAtDefault);
        v("head_dim", head_dim, kOmittedAtDefault);
        v("norm", norm, kOmittedAtDefault);
        v("gated_ffn", gated_ffn, kOmittedAtDefault);
        v("qkv_bias", qkv_bias, kOmittedAtDefault);
        v("out_bias", out_bias, kOmittedAtDefault);
        v("ffn_bias", ffn_bias, kOmittedAtDefault);
        v("qk_norm", qk_norm, kOmittedAtDefault);
        v("sliding_window", sliding_window, kOmittedAtDefault);
        v("sinusoid_layout", sinusoid_layout, kOmittedAtDefault);
        v("never_generated", never_generated, kOmittedAtDefault);
        v("rope", rope, WrittenIf{positional == Positional::rotary});
        v("local_layers", local_layers, kOmittedAtDefault);
        v("no_rope_layers", no_rope_layers, kOmittedAtDefault);
        v("local_rope_theta", local_rope_theta, kOmittedAtDefault);
        v("post_sublayer_norm", post_sublayer_norm, kOmittedAtDefault);
        v("norm_bias", norm_bias, kOmittedAtDefault);
        v("first_attention_norm", first_attention_norm, kOmittedAtDefault);
        v("head_bias", head_bias, kOmittedAtDefault);
        v("logits_bias", logits_bias, kOmittedAtDefault);
        v("qk_norm_across_heads", qk_norm_across_heads, kOmittedAtDefault);
        v("attention_scale", attention_scale, kOmittedAtDefault);
        v("attention_softcap", attention_softcap, kOmittedAtDefault);
        v("logit_softcap", logit_softcap, kOmittedAtDefault);
        v("relative_buckets", relative_buckets, WrittenIf{positional == Positional::relative_buckets});
        v("relative_max_distance", relative_max_distance, WrittenIf{positional == Positional::relative_buckets});
        v("embedding_multiplier", embedding_multiplier, kOmittedAtDefault);
        v("residual_multiplier", residual_multiplier, kOmittedAtDefault);
        v("logit_scale", logit_scale, kOmittedAtDefault);
        v("n_experts", n_experts, kOmittedAtDefault);
        v("experts_per_token", experts_per_token, kOmittedAtDefault);
        v("expert_d_ff", expert_d_ff, kOmittedAtDefault);
        v("normalize_routing", normalize_routing, kOmittedAtDefault);
        v("dense_layers", dense_layers, kOmittedAtDefault);
    }
    bool operator==(const ModelConfig&) const = default;
};

std::string to_string(Arch a);
std::string to_string(Activation a);
std::string to_string(Positional p);
std::string to_string(Family f);
std::string to_string(OutputHead h);
std::string to_string(NormKind n);
std::string to_string(RopeScaling s);
std::string to_string(SinusoidLayout l);
// What a generating decoder keeps for each token: K and V of every decoder self-attention, H_kv heads of D
// floats (4 bytes each, as this engine stores them). 0 for a model without a decoder.
double kv_cache_bytes_per_token(const ModelConfig& config);
// The stack whose output the head reads: the decoder when the model has one, else the encoder.
Stack last_stack(const ModelConfig& config);
// llama, mistral, qwen2, qwen3: the decoder-only template of rotary positions, RMSNorm and SwiGLU.
bool uses_llama_template(Family f);

// The fields are ModelConfig::fields(): every one is required but those after unk_id, which default to our
// Transformer's; unknown fields are an error, so a typo cannot pass silently.
Result<ModelConfig> config_from_json(const std::string& json_text);
// Compact, fields in a fixed order; the optional ones only when not their defaults, so
// our own models' JSON is what it always was.
std::string config_to_json(const ModelConfig& config);
Status validate_config(const ModelConfig& config);

// "tiny": C=64, H=4, 2+2 layers, F=256.  "base": the paper's C=512, H=8, 6+6, F=2048.
Result<ModelConfig> preset_config(const std::string& name, int src_vocab_size, int tgt_vocab_size);

}  // namespace attnlab
