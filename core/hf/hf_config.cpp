// config.json -> ModelConfig for each Hugging Face family: GPT-2, BERT, the Llama template and Marian.
#include "hf/hf_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

namespace {

using nlohmann::json;

// A JSON value as a message shows it: compact, so a hostile value keeps the message one line.
std::string shown(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

// Reads fields of the config object; the first problem is kept and later reads do nothing.
class HfFields {
public:
    explicit HfFields(const json& j) : j_(j) {}
    explicit HfFields(const json&&) = delete;  // it keeps a reference: a temporary would die before it is read
    const std::string& error() const { return error_; }
    bool failed() const { return !error_.empty(); }
    void fail(const std::string& message) {
        if (error_.empty()) error_ = message;
    }

    // A positive integer; absent or null gives `fallback`, or an error when there is none.
    int positive_int(const char* key, std::optional<int> fallback = std::nullopt) {
        const json* v = find(key, fallback.has_value());
        if (!v) return fallback.value_or(1);
        if (!v->is_number_integer() || v->get<int64_t>() < 1 || v->get<int64_t>() > 1'000'000'000) {
            fail(std::string("field \"") + key + "\" must be a positive integer, not " + shown(*v));
            return 1;
        }
        return static_cast<int>(v->get<int64_t>());
    }
    // A positive integer, or 0 when absent or null.
    int optional_positive_int(const char* key) { return find(key, true) ? positive_int(key) : 0; }
    // A token id of the vocabulary; absent or null gives `fallback` (-1: the model has none).
    int token_id(const char* key, int vocab_size, int fallback = -1) {
        const json* v = find(key, true);
        return v ? id_of(key, *v, vocab_size) : fallback;
    }
    // The same, or the first of a list of them (Llama 3.1 gives eos_token_id as a list).
    int first_token_id(const char* key, int vocab_size) {
        const json* v = find(key, true);
        if (!v) return -1;
        return id_of(key, v->is_array() && !v->empty() ? v->front() : *v, vocab_size);
    }
    // The single-token entries of a list of token-id sequences (bad_words_ids: [[58100]]), each in the vocabulary;
    // longer sequences (a ban on a phrase) are not taken. Absent or null: none.
    std::vector<int> single_token_ids(const char* key, int vocab_size) {
        const json* v = find(key, true);
        std::vector<int> ids;
        if (!v) return ids;
        if (!v->is_array()) {
            fail(std::string("field \"") + key + "\" must be a list of lists of token ids, not " + shown(*v));
            return ids;
        }
        for (const json& sequence : *v) {
            if (!sequence.is_array()) {
                fail(std::string("field \"") + key + "\" must be a list of lists of token ids, not " + shown(*v));
                return ids;
            }
            if (sequence.size() == 1) ids.push_back(id_of(key, sequence.front(), vocab_size));
        }
        return ids;
    }
    // Any positive, finite number (RoPE's theta, a scaling factor).
    float positive_number(const char* key, std::optional<float> fallback) {
        const json* v = find(key, fallback.has_value());
        if (!v) return fallback.value_or(1.0f);
        if (!v->is_number() || !(v->get<double>() > 0.0) || v->get<double>() > 1e30) {
            fail(std::string("field \"") + key + "\" must be a positive number, not " + shown(*v));
            return fallback.value_or(1.0f);
        }
        return v->get<float>();
    }
    const json* object(const char* key) {
        const json* v = find(key, true);
        if (v && !v->is_object()) {
            fail(std::string("field \"") + key + "\" must be an object or null, not " + shown(*v));
            return nullptr;
        }
        return v;
    }
    float positive_float(const char* key, float fallback) {
        const json* v = find(key, true);
        if (!v) return fallback;
        if (!v->is_number() || !(v->get<double>() > 0.0) || v->get<double>() > 1.0) {
            fail(std::string("field \"") + key + "\" must be a number in (0, 1], not " + shown(*v));
            return fallback;
        }
        return v->get<float>();
    }
    bool boolean(const char* key, bool fallback) {
        const json* v = find(key, true);
        if (!v) return fallback;
        if (!v->is_boolean()) {
            fail(std::string("field \"") + key + "\" must be true or false, not " + shown(*v));
            return fallback;
        }
        return v->get<bool>();
    }
    std::string text(const char* key, const char* fallback) {
        const json* v = find(key, true);
        if (!v) return fallback;
        if (!v->is_string()) {
            fail(std::string("field \"") + key + "\" must be a string, not " + shown(*v));
            return fallback;
        }
        return v->get<std::string>();
    }
    // A list of whole numbers in [0, limit) (Qwen3-MoE's mlp_only_layers); absent or null: none.
    std::vector<int> index_list(const char* key, int limit) {
        const json* v = find(key, true);
        std::vector<int> out;
        if (!v) return out;
        for (const json& x : v->is_array() ? *v : json::array({json()})) {
            if (!x.is_number_integer() || x.get<int64_t>() < 0 || x.get<int64_t>() >= limit) {
                fail(std::string("field \"") + key + "\" must be a list of indices below " + std::to_string(limit) +
                     ", not " + shown(*v));
                return {};
            }
            out.push_back(static_cast<int>(x.get<int64_t>()));
        }
        return out;
    }
    // A setting the engine runs only at its usual value: anything else is refused by name.
    void require_setting(const char* key, const json& usual) {
        const json* v = find(key, true);
        if (v && *v != usual)
            fail(std::string("field \"") + key + "\" " + shown(*v) + " is not supported (only " + shown(usual) + ")");
    }

private:
    int id_of(const char* key, const json& v, int vocab_size) {
        if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= vocab_size) {
            fail(std::string("field \"") + key + "\" " + shown(v) + " is not an id of the vocabulary of " +
                 std::to_string(vocab_size));
            return -1;
        }
        return static_cast<int>(v.get<int64_t>());
    }
    const json* find(const char* key, bool optional) {
        if (failed()) return nullptr;
        auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            if (!optional) fail(std::string("missing field \"") + key + "\"");
            return nullptr;
        }
        return &*it;
    }
    const json& j_;
    std::string error_;
};

Activation activation(HfFields& f, const char* key, const char* fallback) {
    const std::string name = f.text(key, fallback);
    if (name == "gelu") return Activation::gelu;
    if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast") return Activation::gelu_tanh;
    if (name == "relu") return Activation::relu;
    if (name == "silu" || name == "swish") return Activation::silu;
    f.fail(std::string("field \"") + key + "\" " + shown(json(name)) +
           " is not supported (gelu, gelu_new, gelu_pytorch_tanh, gelu_fast, relu, silu, swish)");
    return Activation::gelu;
}

void require_heads_divide(HfFields& f, int n_heads, int width, const char* heads_key, const char* width_key) {
    if (!f.failed() && width % n_heads != 0)
        f.fail(std::string(heads_key) + " " + std::to_string(n_heads) + " does not divide " + width_key + " " +
               std::to_string(width));
}

ModelConfig gpt2_config(HfFields& f) {
    ModelConfig c;
    c.family = Family::gpt2;
    c.arch = Arch::decoder_only;
    c.d_model = f.positive_int("n_embd");
    c.n_heads = f.positive_int("n_head");
    c.n_encoder_layers = 0;
    c.n_decoder_layers = f.positive_int("n_layer");
    c.max_len = f.positive_int("n_positions");
    c.tgt_vocab_size = f.positive_int("vocab_size");
    c.src_vocab_size = 0;
    require_heads_divide(f, c.n_heads, c.d_model, "n_head", "n_embd");
    c.d_ff = f.positive_int("n_inner", 4 * c.d_model);
    c.activation = activation(f, "activation_function", "gelu_new");
    c.layer_norm_eps = f.positive_float("layer_norm_epsilon", 1e-5f);
    c.tie_embeddings = f.boolean("tie_word_embeddings", true);
    c.norm_first = true;
    c.final_norm = true;
    c.positional = Positional::learned;
    c.scale_embedding = false;
    c.pad_id = -1;  // GPT-2 has no padding token: no id is ever read as padding
    c.sos_id = f.token_id("bos_token_id", c.tgt_vocab_size);
    c.eos_id = f.token_id("eos_token_id", c.tgt_vocab_size);
    c.unk_id = -1;
    f.require_setting("scale_attn_weights", true);
    f.require_setting("scale_attn_by_inverse_layer_idx", false);
    f.require_setting("add_cross_attention", false);
    return c;
}

// An encoder-only family's sizes, which BERT and ModernBERT name alike: C, H (dividing C), the layers, F, the longest
// input (max_position_embeddings, or max_len when it is missing; nullopt: required) and the vocabulary.
ModelConfig encoder_only_sizes(HfFields& f, Family family, std::optional<int> max_len) {
    ModelConfig c;
    c.family = family;
    c.arch = Arch::encoder_only;
    c.d_model = f.positive_int("hidden_size");
    c.n_heads = f.positive_int("num_attention_heads");
    c.n_encoder_layers = f.positive_int("num_hidden_layers");
    c.n_decoder_layers = 0;
    c.d_ff = f.positive_int("intermediate_size");
    c.max_len = f.positive_int("max_position_embeddings", max_len);
    c.src_vocab_size = f.positive_int("vocab_size");
    c.tgt_vocab_size = 0;
    require_heads_divide(f, c.n_heads, c.d_model, "num_attention_heads", "hidden_size");
    return c;
}

ModelConfig bert_config(HfFields& f) {
    ModelConfig c = encoder_only_sizes(f, Family::bert, std::nullopt);
    c.type_vocab_size = f.positive_int("type_vocab_size", 2);
    c.activation = activation(f, "hidden_act", "gelu");
    c.layer_norm_eps = f.positive_float("layer_norm_eps", 1e-12f);
    c.tie_embeddings = f.boolean("tie_word_embeddings", true);
    c.norm_first = false;
    c.final_norm = false;
    c.positional = Positional::learned;
    c.scale_embedding = false;
    c.embedding_norm = true;
    c.output_head = OutputHead::transform;
    c.pad_id =
        f.token_id("pad_token_id", c.src_vocab_size, 0);  // [PAD]: masked as a key, as its attention_mask would be
    c.sos_id = c.eos_id = c.unk_id = -1;                  // [CLS], [SEP] and [UNK] are the tokenizer's (vocab.txt)
    f.require_setting("position_embedding_type", "absolute");
    f.require_setting("is_decoder", false);
    f.require_setting("add_cross_attention", false);
    return c;
}

// ModernBERT (ModernBertForMaskedLM): pre-LN blocks of LayerNorms without β (norm_bias), layer 0's attention reading
// the embeddings' LayerNorm as it is, RoPE with Q;K;V packed in Wqkv, a GeGLU FFN packed in Wi, global layers every
// global_attn_every_n_layers-th from the first (or as layer_types lists them) and local ones between, whose keys are
// at most local_attention/2 away on either side, each kind with its RoPE base (global_rope_theta, local_rope_theta,
// or the newer rope_parameters); final_norm, then the head: dense, activation, LayerNorm and the unembedding tied to
// tok_embeddings with decoder.bias.
ModelConfig modernbert_config(HfFields& f, const json& j) {
    ModelConfig c = encoder_only_sizes(f, Family::modernbert, 8192);
    c.activation = activation(f, "hidden_activation", "gelu");
    if (!f.failed() && activation(f, "classifier_activation", "gelu") != c.activation)
        f.fail("classifier_activation must be hidden_activation's (the head and the FFN share one activation here)");
    c.layer_norm_eps = f.positive_float("norm_eps", 1e-5f);
    c.norm_bias = f.boolean("norm_bias", false);
    c.first_attention_norm = false;
    c.tie_embeddings = f.boolean("tie_word_embeddings", true);
    c.norm_first = true;
    c.final_norm = true;
    c.embedding_norm = true;
    c.gated_ffn = true;
    c.output_head = OutputHead::transform;
    c.positional = Positional::rotary;
    c.scale_embedding = false;
    c.qkv_bias = c.out_bias = f.boolean("attention_bias", false);
    c.ffn_bias = f.boolean("mlp_bias", false);
    c.head_bias = f.boolean("classifier_bias", false);
    c.logits_bias = f.boolean("decoder_bias", true);
    // Each kind of layer's RoPE base: rope_parameters' full_attention / sliding_attention (default RoPE only), else
    // the older global_rope_theta and local_rope_theta (null: the global base).
    c.rope.theta = f.positive_number("global_rope_theta", 160000.0f);
    c.local_rope_theta = j.contains("local_rope_theta") && j["local_rope_theta"].is_null()
                             ? c.rope.theta
                             : f.positive_number("local_rope_theta", 10000.0f);
    if (const json* rope = f.object("rope_parameters")) {
        for (const auto& [kind, theta] : {std::pair{"full_attention", &c.rope.theta},
                                          std::pair{"sliding_attention", &c.local_rope_theta}}) {
            const auto it = rope->find(kind);
            if (it == rope->end() || it->is_null()) continue;
            HfFields r(*it);
            r.require_setting("rope_type", "default");
            *theta = r.positive_number("rope_theta", *theta);
            if (r.failed()) f.fail(std::string("rope_parameters.") + kind + ": " + r.error());
        }
    }
    c.sliding_window = f.positive_int("local_attention", 128);
    const int layers = c.n_encoder_layers;
    const int every = f.positive_int("global_attn_every_n_layers", 3);
    const auto types = j.find("layer_types");
    const bool typed = types != j.end() && !types->is_null();
    if (!f.failed() && typed && (!types->is_array() || static_cast<int>(types->size()) != layers))
        f.fail("field \"layer_types\" must list one type per layer (" + std::to_string(layers) + "), not " +
               shown(*types));
    for (int layer = 0; layer < layers && !f.failed(); ++layer) {
        const json type = typed ? (*types)[static_cast<size_t>(layer)] : json();
        if (typed && type != "sliding_attention" && type != "full_attention")
            f.fail("field \"layer_types\" has " + shown(type) + " (sliding_attention, full_attention)");
        else if (typed ? type == "sliding_attention" : layer % every != 0)
            c.local_layers.push_back(layer);
    }
    if (c.local_layers.empty()) c.sliding_window = 0;  // every layer global: no window to show
    c.pad_id = f.token_id("pad_token_id", c.src_vocab_size);  // masked as a key, as its attention_mask would be
    c.sos_id = c.eos_id = c.unk_id = -1;  // [CLS], [SEP] and [UNK] are the tokenizer's (tokenizer.json)
    return c;
}

// rope_theta and rope_scaling: null, or {"rope_type" (older files: "type"): "linear" | "llama3" | "default", "factor",
// and for llama3 "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}.
RopeConfig rope_config(HfFields& f) {
    RopeConfig rope;
    rope.theta = f.positive_number("rope_theta", 10000.0f);
    const json* scaling = f.object("rope_scaling");
    if (!scaling) return rope;
    HfFields r(*scaling);
    const std::string type = r.text(scaling->contains("rope_type") ? "rope_type" : "type", "default");
    if (type == "linear") {
        rope.scaling = RopeScaling::linear;
        rope.factor = r.positive_number("factor", std::nullopt);
    } else if (type == "llama3") {
        rope.scaling = RopeScaling::llama3;
        rope.factor = r.positive_number("factor", std::nullopt);
        rope.low_freq_factor = r.positive_number("low_freq_factor", std::nullopt);
        rope.high_freq_factor = r.positive_number("high_freq_factor", std::nullopt);
        rope.original_max_position = r.positive_int("original_max_position_embeddings");
    } else if (type != "default") {
        r.fail("type " + shown(json(type)) + " is not supported (linear, llama3)");
    }
    if (r.failed()) f.fail("rope_scaling: " + r.error());
    return rope;
}

// The Llama template: llama (Llama 2/3, TinyLlama, SmolLM2), mistral (+ sliding_window), qwen2 (+ biases on Q, K,
// V), qwen3 (+ RMSNorm of each head of Q and K). Fields as their config.json files have them.
ModelConfig llama_config(HfFields& f, Family family) {
    ModelConfig c;
    c.family = family;
    c.arch = Arch::decoder_only;
    c.d_model = f.positive_int("hidden_size");
    c.n_heads = f.positive_int("num_attention_heads");
    c.n_encoder_layers = 0;
    c.n_decoder_layers = f.positive_int("num_hidden_layers");
    c.d_ff = f.positive_int("intermediate_size");
    c.max_len = f.positive_int("max_position_embeddings");
    c.tgt_vocab_size = f.positive_int("vocab_size");
    c.src_vocab_size = 0;
    const int kv_heads = f.positive_int("num_key_value_heads", c.n_heads);
    if (!f.failed() && c.n_heads % kv_heads != 0)
        f.fail("num_key_value_heads " + std::to_string(kv_heads) + " does not divide num_attention_heads " +
               std::to_string(c.n_heads));
    c.n_kv_heads = kv_heads == c.n_heads ? 0 : kv_heads;
    const int head_dim = f.optional_positive_int("head_dim");  // 0: absent, C/H
    if (!f.failed() && head_dim == 0 && c.d_model % c.n_heads != 0)
        f.fail("num_attention_heads " + std::to_string(c.n_heads) + " does not divide hidden_size " +
               std::to_string(c.d_model) + " and there is no head_dim");
    c.head_dim = head_dim != 0 && head_dim * c.n_heads != c.d_model ? head_dim : 0;
    c.activation = activation(f, "hidden_act", "silu");
    c.layer_norm_eps = f.positive_float("rms_norm_eps", 1e-6f);
    c.tie_embeddings = f.boolean("tie_word_embeddings", false);
    c.norm = NormKind::rms_norm;
    c.norm_first = true;
    c.final_norm = true;
    c.gated_ffn = true;
    c.positional = Positional::rotary;
    c.rope = rope_config(f);
    c.scale_embedding = false;
    const bool attention_bias = f.boolean("attention_bias", false);
    c.qkv_bias = family == Family::qwen2 || attention_bias;
    c.out_bias = family != Family::qwen2 && attention_bias;
    c.ffn_bias = family == Family::llama && f.boolean("mlp_bias", false);
    c.qk_norm = family == Family::qwen3;
    if (family == Family::mistral) c.sliding_window = f.optional_positive_int("sliding_window");  // null: none
    if (family == Family::qwen2 || family == Family::qwen3) f.require_setting("use_sliding_window", false);
    c.pad_id = f.token_id("pad_token_id", c.tgt_vocab_size);
    c.sos_id = f.first_token_id("bos_token_id", c.tgt_vocab_size);
    c.eos_id = f.first_token_id("eos_token_id", c.tgt_vocab_size);
    c.unk_id = -1;
    return c;
}

// Gemma 2 and Gemma 3's text model (Gemma2ForCausalLM, Gemma3ForCausalLM): the Llama template's shape with Gemma's
// RMSNorm x/√(mean(x²) + ε)·(1 + γ) before and after each sublayer, embeddings times √C, a GeGLU FFN
// (hidden_activation), the scores times query_pre_attn_scalar^−½, tied embeddings, and local layers (a sliding window)
// between global ones: layer_types when given, else every other layer from the first (Gemma 2) or all but every
// sliding_window_pattern-th (Gemma 3). Gemma 2 soft-caps the scores and the logits; Gemma 3 norms each head of Q and
// K and turns its local layers with rope_local_base_freq, its global ones with rope_theta and rope_scaling.
ModelConfig gemma_config(HfFields& f, const json& j, Family family) {
    const bool gemma3 = family == Family::gemma3;
    ModelConfig c = llama_config(f, family);
    c.activation = activation(f, "hidden_activation", "gelu_pytorch_tanh");
    c.tie_embeddings = f.boolean("tie_word_embeddings", true);
    c.norm = NormKind::rms_norm_plus_one;
    c.post_sublayer_norm = true;
    c.scale_embedding = true;
    c.qk_norm = gemma3;
    c.attention_scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(
                                                     f.positive_number("query_pre_attn_scalar", 256.0f))));
    c.attention_softcap = f.positive_number("attn_logit_softcapping", gemma3 ? 0.0f : 50.0f);
    c.logit_softcap = f.positive_number("final_logit_softcapping", gemma3 ? 0.0f : 30.0f);
    if (gemma3) c.local_rope_theta = f.positive_number("rope_local_base_freq", 10000.0f);
    if (gemma3) f.require_setting("use_bidirectional_attention", false);
    if (!f.failed() && j.contains("rope_parameters") && !j.contains("rope_theta"))
        f.fail("field \"rope_parameters\" (one RoPE per layer type) is not supported: give rope_theta, "
               "rope_scaling and rope_local_base_freq");
    c.sliding_window = f.optional_positive_int("sliding_window");  // null: every layer is global
    const int layers = c.n_decoder_layers;
    const int pattern = gemma3 ? f.positive_int("sliding_window_pattern", 6) : 2;
    const auto types = j.find("layer_types");
    const bool typed = types != j.end() && !types->is_null();
    if (!f.failed() && typed && (!types->is_array() || static_cast<int>(types->size()) != layers))
        f.fail("field \"layer_types\" must list one type per layer (" + std::to_string(layers) + "), not " +
               shown(*types));
    for (int layer = 0; layer < layers && !f.failed() && c.sliding_window > 0; ++layer) {
        const json type = typed ? (*types)[static_cast<size_t>(layer)] : json();
        if (typed && type != "sliding_attention" && type != "full_attention")
            f.fail("field \"layer_types\" has " + shown(type) + " (sliding_attention, full_attention)");
        else if (typed ? type == "sliding_attention" : (layer + 1) % pattern != 0)
            c.local_layers.push_back(layer);
    }
    return c;
}

// SmolLM3: the Llama template (biases on Q, K, V and O with attention_bias, on the FFN with mlp_bias; tied by
// default) with NoPE layers: no_rope_layers holds a 1 (RoPE) or 0 (NoPE) per layer; absent or null, every
// no_rope_layer_interval-th layer (4th, 8th, …) is a NoPE layer (configuration_smollm3.py). Its sliding window
// (use_sliding_window) is refused.
ModelConfig smollm3_config(HfFields& f) {
    ModelConfig c = llama_config(f, Family::smollm3);
    c.rope.theta = f.positive_number("rope_theta", 2000000.0f);  // SmolLM3Config's default base
    c.out_bias = c.qkv_bias;
    c.ffn_bias = f.boolean("mlp_bias", false);
    c.tie_embeddings = f.boolean("tie_word_embeddings", true);
    f.require_setting("use_sliding_window", false);
    const int layers = c.n_decoder_layers;
    const std::vector<int> uses_rope = f.index_list("no_rope_layers", 2);  // 1: RoPE, 0: NoPE
    const int interval = f.positive_int("no_rope_layer_interval", 4);
    if (!f.failed() && !uses_rope.empty() && static_cast<int>(uses_rope.size()) < layers)
        f.fail("field \"no_rope_layers\" has " + std::to_string(uses_rope.size()) + " entries for " +
               std::to_string(layers) + " layers");
    for (int layer = 0; layer < layers && !f.failed(); ++layer)
        if (uses_rope.empty() ? (layer + 1) % interval == 0 : uses_rope[static_cast<size_t>(layer)] == 0)
            c.no_rope_layers.push_back(layer);
    return c;
}

// Marian (Helsinki-NLP's opus-mt): the paper's post-LN encoder-decoder with static sinusoids in halves, the
// embeddings scaled by √C, one token table for both stacks and the unembedding, and final_logits_bias.
ModelConfig marian_config(HfFields& f) {
    ModelConfig c;
    c.family = Family::marian;
    c.arch = Arch::encoder_decoder;
    c.d_model = f.positive_int("d_model");
    c.n_heads = f.positive_int("encoder_attention_heads");
    c.n_encoder_layers = f.positive_int("encoder_layers");
    c.n_decoder_layers = f.positive_int("decoder_layers");
    c.d_ff = f.positive_int("encoder_ffn_dim");
    c.max_len = f.positive_int("max_position_embeddings");
    c.src_vocab_size = c.tgt_vocab_size = f.positive_int("vocab_size");
    require_heads_divide(f, c.n_heads, c.d_model, "encoder_attention_heads", "d_model");
    const auto require_same = [&](const char* key, int value, const char* as_key) {
        if (!f.failed() && f.positive_int(key, value) != value)
            f.fail(std::string(key) + " must equal " + as_key + " " + std::to_string(value) +
                   " (one width for both stacks)");
    };
    require_same("decoder_attention_heads", c.n_heads, "encoder_attention_heads");
    require_same("decoder_ffn_dim", c.d_ff, "encoder_ffn_dim");
    require_same("decoder_vocab_size", c.tgt_vocab_size, "vocab_size");
    c.activation = activation(f, "activation_function", "gelu");
    c.layer_norm_eps = 1e-5f;  // nn.LayerNorm's default; Marian's config has no field for it
    c.scale_embedding = f.boolean("scale_embedding", false);
    c.tie_embeddings = f.boolean("tie_word_embeddings", true);
    c.norm_first = false;
    c.final_norm = false;
    c.positional = Positional::sinusoidal;
    c.sinusoid_layout = SinusoidLayout::halves;
    c.pad_id = f.token_id("pad_token_id", c.tgt_vocab_size);
    c.eos_id = f.token_id("eos_token_id", c.tgt_vocab_size);
    c.sos_id = f.token_id("decoder_start_token_id", c.tgt_vocab_size, c.pad_id);
    c.unk_id = -1;  // <unk> is the tokenizer's (vocab.json)
    f.require_setting("share_encoder_decoder_embeddings", true);
    f.require_setting("normalize_before", false);
    f.require_setting("normalize_embedding", false);
    f.require_setting("static_position_embeddings", true);
    f.require_setting("add_final_layer_norm", false);
    return c;
}

// The mixtures of experts on the Llama template: olmoe (+ RMSNorm of Q and of K across all their heads), qwen3_moe (+
// qwen3's RMSNorm of each head, dense layers by decoder_sparse_step and mlp_only_layers), granitemoe (+ constant
// multipliers of the embeddings, the scores, each sublayer's output and the logits; the experts packed per layer).
ModelConfig moe_config(HfFields& f, Family family) {
    ModelConfig c = llama_config(f, family);
    const bool granite = family == Family::granitemoe;
    c.n_experts = f.positive_int(granite ? "num_local_experts" : "num_experts");
    c.experts_per_token = f.positive_int("num_experts_per_tok");
    c.expert_d_ff = f.positive_int(family == Family::qwen3_moe ? "moe_intermediate_size" : "intermediate_size");
    // Granite: softmax over the top k logits, which is the top k of the softmax renormalised.
    c.normalize_routing = granite || f.boolean("norm_topk_prob", false);
    if (!f.failed() && c.experts_per_token > c.n_experts)
        f.fail("num_experts_per_tok " + std::to_string(c.experts_per_token) + " is more than the " +
               std::to_string(c.n_experts) + " experts");
    if (family == Family::olmoe) {
        c.qk_norm = c.qk_norm_across_heads = true;
        f.require_setting("clip_qkv", json());
    }
    if (family == Family::qwen3_moe) {
        c.qk_norm = true;
        f.require_setting("use_sliding_window", false);
        const std::vector<int> mlp_only = f.index_list("mlp_only_layers", c.n_decoder_layers);
        const int sparse_step = f.positive_int("decoder_sparse_step", 1);
        for (int i = 0; i < c.n_decoder_layers; ++i)
            if (std::find(mlp_only.begin(), mlp_only.end(), i) != mlp_only.end() || (i + 1) % sparse_step != 0)
                c.dense_layers.push_back(i);
    }
    if (granite) {
        c.embedding_multiplier = f.positive_number("embedding_multiplier", 1.0f);
        c.residual_multiplier = f.positive_number("residual_multiplier", 1.0f);
        // GraniteMoeConfig's default is 1 (the scores as they are), not 1/√D.
        c.attention_scale = f.positive_number("attention_multiplier", 1.0f);
        c.logit_scale = 1.0f / f.positive_number("logits_scaling", 1.0f);
        f.require_setting("position_embedding_type", "rope");  // newer files may name it; anything else has no RoPE
    }
    return c;
}

// BLOOM (BigScience): pre-LN blocks after a LayerNorm over the word embeddings, ALiBi in place of positions, Q, K
// and V fused per head (query_key_value), a 4C FFN with the tanh GELU, ln_f and the head tied to the embeddings.
// n_embed is hidden_size's older name; slow_but_exact and pretraining_tp only split the same sums.
ModelConfig bloom_config(HfFields& f) {
    ModelConfig c;
    c.family = Family::bloom;
    c.arch = Arch::decoder_only;
    c.d_model = f.positive_int("n_embed", f.positive_int("hidden_size", 64));
    c.n_heads = f.positive_int("n_head", f.positive_int("num_attention_heads", 8));
    c.n_encoder_layers = 0;
    c.n_decoder_layers = f.positive_int("n_layer", f.positive_int("num_hidden_layers", 2));
    c.tgt_vocab_size = f.positive_int("vocab_size", 250880);
    c.src_vocab_size = 0;
    require_heads_divide(f, c.n_heads, c.d_model, "n_head", "hidden_size");
    c.d_ff = 4 * c.d_model;
    c.max_len = f.positive_int("seq_length", 2048);  // ALiBi has no table: the length it was trained on
    c.activation = Activation::gelu_tanh;            // bloom_gelu
    c.layer_norm_eps = f.positive_float("layer_norm_epsilon", 1e-5f);
    c.tie_embeddings = f.boolean("tie_word_embeddings", true);
    c.norm_first = true;
    c.final_norm = true;
    c.embedding_norm = true;  // word_embeddings_layernorm
    c.positional = Positional::alibi;
    c.scale_embedding = false;
    c.pad_id = f.token_id("pad_token_id", c.tgt_vocab_size);
    c.sos_id = f.token_id("bos_token_id", c.tgt_vocab_size, 1);
    c.eos_id = f.token_id("eos_token_id", c.tgt_vocab_size, 2);
    c.unk_id = -1;
    f.require_setting("apply_residual_connection_post_layernorm", false);
    return c;
}

// T5 (T5ForConditionalGeneration): v1.0 (feed_forward_proj "relu", tied) and the v1.1 layout of Flan-T5 ("gated-gelu",
// an lm_head of its own). Pre-norm RMSNorm blocks without biases, one token table for both stacks, a learned bias per
// head and bucket of relative position on the scores (no 1/√D), final norms, and, tied, the decoder output times
// d_model^−½ before the shared table. The decoder starts from the padding token.
ModelConfig t5_config(HfFields& f) {
    ModelConfig c;
    c.family = Family::t5;
    c.arch = Arch::encoder_decoder;
    c.d_model = f.positive_int("d_model");
    c.n_heads = f.positive_int("num_heads");
    const int d_kv = f.positive_int("d_kv");
    c.head_dim = d_kv * c.n_heads != c.d_model ? d_kv : 0;
    c.n_encoder_layers = f.positive_int("num_layers");
    c.n_decoder_layers = f.positive_int("num_decoder_layers", c.n_encoder_layers);
    c.d_ff = f.positive_int("d_ff");
    c.max_len = f.positive_int("n_positions", 512);  // no position table: the longest text it is run on
    c.src_vocab_size = c.tgt_vocab_size = f.positive_int("vocab_size");
    c.relative_buckets = f.positive_int("relative_attention_num_buckets", 32);
    c.relative_max_distance = f.positive_int("relative_attention_max_distance", 128);
    // "relu", "gated-gelu" (gelu_new, the tanh form), "gelu", "gated-silu": [gated-]activation, as T5Config splits it.
    const std::string proj = f.text("feed_forward_proj", "relu");
    c.gated_ffn = proj.starts_with("gated-");
    if (proj == "gated-gelu") {
        c.activation = Activation::gelu_tanh;
    } else if (!f.failed()) {
        const json activation_field{{"feed_forward_proj", c.gated_ffn ? proj.substr(6) : proj}};  // outlives `act`
        HfFields act(activation_field);
        c.activation = activation(act, "feed_forward_proj", "relu");
        if (act.failed()) f.fail(act.error());
    }
    c.layer_norm_eps = f.positive_float("layer_norm_epsilon", 1e-6f);
    c.tie_embeddings = f.boolean("tie_word_embeddings", true);
    c.logit_scale = c.tie_embeddings ? 1.0f / std::sqrt(static_cast<float>(c.d_model)) : 1.0f;
    c.norm = NormKind::rms_norm;
    c.norm_first = true;
    c.final_norm = true;
    c.positional = Positional::relative_buckets;
    c.attention_scale = 1.0f;
    c.scale_embedding = false;
    c.qkv_bias = c.out_bias = c.ffn_bias = false;
    c.pad_id = f.token_id("pad_token_id", c.tgt_vocab_size, 0);
    c.eos_id = f.token_id("eos_token_id", c.tgt_vocab_size, 1);
    c.sos_id = f.token_id("decoder_start_token_id", c.tgt_vocab_size, c.pad_id);
    c.unk_id = -1;  // <unk> is the tokenizer's (spiece.model)
    f.require_setting("is_encoder_decoder", true);
    return c;
}

// The model types config_from_hf_json accepts, each with the reader of its fields; its error message names them
// from here, in this order.
struct HfModelType {
    std::string_view name;
    ModelConfig (*config)(HfFields& f, const json& j);
};

const HfModelType kModelTypes[] = {
    {"gpt2", [](HfFields& f, const json&) { return gpt2_config(f); }},
    {"bert", [](HfFields& f, const json&) { return bert_config(f); }},
    {"llama", [](HfFields& f, const json&) { return llama_config(f, Family::llama); }},
    {"mistral", [](HfFields& f, const json&) { return llama_config(f, Family::mistral); }},
    {"qwen2", [](HfFields& f, const json&) { return llama_config(f, Family::qwen2); }},
    {"qwen3", [](HfFields& f, const json&) { return llama_config(f, Family::qwen3); }},
    {"smollm3", [](HfFields& f, const json&) { return smollm3_config(f); }},
    {"marian", [](HfFields& f, const json&) { return marian_config(f); }},
    {"bloom", [](HfFields& f, const json&) { return bloom_config(f); }},
    {"gemma2", [](HfFields& f, const json& j) { return gemma_config(f, j, Family::gemma2); }},
    {"gemma3_text", [](HfFields& f, const json& j) { return gemma_config(f, j, Family::gemma3); }},
    {"olmoe", [](HfFields& f, const json&) { return moe_config(f, Family::olmoe); }},
    {"qwen3_moe", [](HfFields& f, const json&) { return moe_config(f, Family::qwen3_moe); }},
    {"granitemoe", [](HfFields& f, const json&) { return moe_config(f, Family::granitemoe); }},
    {"t5", [](HfFields& f, const json&) { return t5_config(f); }},
    {"modernbert", [](HfFields& f, const json& j) { return modernbert_config(f, j); }},
};

std::string supported_model_types() {
    std::string names;
    for (const HfModelType& t : kModelTypes) names += (names.empty() ? "" : ", ") + std::string(t.name);
    return names;
}

}  // namespace

std::vector<std::string_view> hf_model_types() {
    std::vector<std::string_view> names;
    for (const HfModelType& t : kModelTypes) names.push_back(t.name);
    return names;
}

Result<ModelConfig> config_from_hf_json(std::string_view json_text) {
    const json j = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return Error{"not valid JSON"};
    if (!j.is_object()) return Error{"not a JSON object"};
    HfFields f(j);
    if (!j.contains("model_type") || j["model_type"].is_null()) return Error{"missing field \"model_type\""};
    const std::string model_type = f.text("model_type", "");
    if (f.failed()) return Error{f.error()};
    if (model_type == "gemma3")  // Gemma3ForConditionalGeneration: a vision tower, the text model under text_config
        return Error{"model_type \"gemma3\" is the image-and-text model: open a text model (gemma3_text, as "
                     "Gemma3ForCausalLM saves it)"};
    const auto* type = std::find_if(std::begin(kModelTypes), std::end(kModelTypes),
                                    [&](const HfModelType& t) { return t.name == model_type; });
    if (type == std::end(kModelTypes))
        return Error{"unsupported model_type " + shown(json(model_type)) + " (supported: " + supported_model_types() +
                     ")"};
    ModelConfig c = type->config(f, j);
    c.never_generated = f.single_token_ids("bad_words_ids", c.output_vocab_size());
    if (f.failed()) return Error{f.error()};
    if (auto st = validate_config(c); !st) return st.error();
    return c;
}

}  // namespace attnlab
