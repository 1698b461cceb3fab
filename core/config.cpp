// ModelConfig <-> JSON, validation, and the named presets.
#include "config.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <set>
#include <type_traits>
#include <utility>

namespace attnlab {

using nlohmann::json;

namespace {

template <class E, size_t N>
struct EnumNames {
    std::array<std::pair<E, const char*>, N> entries;
    const char* name(E e) const {
        for (auto& [value, text] : entries)
            if (value == e) return text;
        return "?";
    }
    bool parse(const std::string& text, E& out) const {
        for (auto& [value, name] : entries)
            if (text == name) {
                out = value;
                return true;
            }
        return false;
    }
    std::string choices() const {
        std::string s;
        for (auto& [value, name] : entries) s += (s.empty() ? "" : " | ") + std::string(name);
        return s;
    }
};

constexpr EnumNames<Arch, 3> kArchNames{{{{Arch::encoder_decoder, "encoder_decoder"},
                                          {Arch::encoder_only, "encoder_only"},
                                          {Arch::decoder_only, "decoder_only"}}}};
constexpr EnumNames<Activation, 4> kActivationNames{{{{Activation::relu, "relu"},
                                                      {Activation::gelu, "gelu"},
                                                      {Activation::gelu_tanh, "gelu_tanh"},
                                                      {Activation::silu, "silu"}}}};
constexpr EnumNames<Positional, 6> kPositionalNames{{{{Positional::sinusoidal, "sinusoidal"},
                                                      {Positional::learned, "learned"},
                                                      {Positional::none, "none"},
                                                      {Positional::rotary, "rotary"},
                                                      {Positional::alibi, "alibi"},
                                                      {Positional::relative_buckets, "relative_buckets"}}}};
constexpr EnumNames<Family, 17> kFamilyNames{{{{Family::transformer, "transformer"},
                                               {Family::gpt2, "gpt2"},
                                               {Family::bert, "bert"},
                                               {Family::llama, "llama"},
                                               {Family::mistral, "mistral"},
                                               {Family::qwen2, "qwen2"},
                                               {Family::qwen3, "qwen3"},
                                               {Family::marian, "marian"},
                                               {Family::t5, "t5"},
                                               {Family::bloom, "bloom"},
                                               {Family::smollm3, "smollm3"},
                                               {Family::gemma2, "gemma2"},
                                               {Family::gemma3, "gemma3"},
                                               {Family::olmoe, "olmoe"},
                                               {Family::qwen3_moe, "qwen3_moe"},
                                               {Family::granitemoe, "granitemoe"},
                                               {Family::modernbert, "modernbert"}}}};
constexpr EnumNames<SinusoidLayout, 2> kSinusoidLayoutNames{
    {{{SinusoidLayout::interleaved, "interleaved"}, {SinusoidLayout::halves, "halves"}}}};
constexpr EnumNames<NormKind, 3> kNormNames{{{{NormKind::layer_norm, "layer_norm"},
                                              {NormKind::rms_norm, "rms_norm"},
                                              {NormKind::rms_norm_plus_one, "rms_norm_plus_one"}}}};
constexpr EnumNames<RopeScaling, 3> kRopeScalingNames{
    {{{RopeScaling::none, "none"}, {RopeScaling::linear, "linear"}, {RopeScaling::llama3, "llama3"}}}};
constexpr EnumNames<OutputHead, 3> kOutputHeadNames{
    {{{OutputHead::linear, "linear"}, {OutputHead::transform, "transform"}, {OutputHead::none, "none"}}}};

const auto& enum_names(Arch) { return kArchNames; }
const auto& enum_names(Activation) { return kActivationNames; }
const auto& enum_names(Positional) { return kPositionalNames; }
const auto& enum_names(Family) { return kFamilyNames; }
const auto& enum_names(SinusoidLayout) { return kSinusoidLayoutNames; }
const auto& enum_names(NormKind) { return kNormNames; }
const auto& enum_names(RopeScaling) { return kRopeScalingNames; }
const auto& enum_names(OutputHead) { return kOutputHeadNames; }

template <class T>
std::string read_fields(const json& j, T& out, const std::string& path);

// Reads each field a struct's fields() visits from its JSON object, in that order, until one is missing or
// malformed; `context` begins the error ("config: ", or "config: rope: " inside the rope).
class FieldReader {
public:
    FieldReader(const json& j, std::string context) : j_(j), context_(std::move(context)) {}
    const std::string& error() const { return error_; }

    template <class T>
    void operator()(const char* key, T& out) {
        if (const json* v = find(key, /*required=*/true)) read(key, *v, out);
    }
    template <class T, class Rule>
    void operator()(const char* key, T& out, Rule) {
        if (const json* v = find(key, /*required=*/false)) read(key, *v, out);
    }

private:
    template <class T>
    void read(const char* key, const json& v, T& out) {
        if constexpr (std::is_same_v<T, bool>) {
            if (!v.is_boolean()) return fail(key, "must be true or false");
            out = v.get<bool>();
        } else if constexpr (std::is_same_v<T, int>) {
            if (!v.is_number_integer()) return fail(key, "must be an integer");
            const auto x = v.get<int64_t>();
            if (x < -1000000000 || x > 1000000000) return fail(key, "is out of range");
            out = static_cast<int>(x);
        } else if constexpr (std::is_same_v<T, float>) {
            if (!v.is_number()) return fail(key, "must be a number");
            out = v.get<float>();
        } else if constexpr (std::is_same_v<T, std::vector<int>>) {
            if (!v.is_array()) return fail(key, "must be a list of token ids");
            out.clear();
            for (const json& id : v) {
                if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > 1000000000)
                    return fail(key, "must be a list of token ids");
                out.push_back(id.get<int>());
            }
        } else if constexpr (std::is_enum_v<T>) {
            const auto& names = enum_names(T{});
            if (!v.is_string() || !names.parse(v.get<std::string>(), out))
                return fail(key, "must be one of " + names.choices());
        } else {  // a struct of its own fields, as the rope
            if (!v.is_object()) return fail(key, "must be an object");
            T value;
            error_ = read_fields(v, value, key);
            if (error_.empty()) out = value;
        }
    }
    const json* find(const char* key, bool required) {
        if (!error_.empty()) return nullptr;
        auto it = j_.find(key);
        if (it != j_.end()) return &*it;
        if (required) error_ = context_ + "missing field '" + key + "'";
        return nullptr;
    }
    void fail(const char* key, const std::string& why) { error_ = context_ + "field '" + key + "' " + why; }
    const json& j_;
    std::string context_;
    std::string error_;
};

// `j` (an object) into `out`, or the error: an unknown key first, then the fields in fields() order.
// `path` names a nested struct ("rope"), empty for the config itself.
template <class T>
std::string read_fields(const json& j, T& out, const std::string& path) {
    std::set<std::string> known;
    out.fields([&known](const char* key, auto&&...) { known.insert(key); });
    for (auto& [key, value] : j.items())
        if (!known.count(key))  // quoted as JSON, so a hostile key cannot break the one-line message
            return "config: unknown field " + (path.empty() ? "" : path + ".") +
                   json(key).dump(-1, ' ', false, json::error_handler_t::replace);
    FieldReader r(j, path.empty() ? "config: " : "config: " + path + ": ");
    out.fields(r);
    return r.error();
}

template <class T>
json fields_json(const T& x, bool every_field);

template <class T>
json json_value(const T& x, bool every_field) {
    if constexpr (std::is_enum_v<T>)
        return to_string(x);
    else if constexpr (std::is_class_v<T> && !std::is_same_v<T, std::vector<int>>)
        return fields_json(x, every_field);
    else
        return x;
}

// Writes each field a struct's fields() visits under its name: a required one always, an optional one by
// its rule, OmittedAtDefault's against `defaults` (the default struct's JSON of every field), or every
// field when `defaults` is null.
class FieldWriter {
public:
    FieldWriter(json& out, const json* defaults) : out_(out), defaults_(defaults) {}
    template <class T>
    void operator()(const char* key, const T& value) {
        out_[key] = json_value(value, !defaults_);
    }
    template <class T>
    void operator()(const char* key, const T& value, OmittedAtDefault) {
        json x = json_value(value, !defaults_);
        if (!defaults_ || x != defaults_->at(key)) out_[key] = std::move(x);
    }
    template <class T>
    void operator()(const char* key, const T& value, WrittenIf rule) {
        if (!defaults_ || rule.when) out_[key] = json_value(value, !defaults_);
    }

private:
    json& out_;
    const json* defaults_;
};

template <class T>
json fields_json(const T& x, bool every_field) {
    const json defaults = every_field ? json() : fields_json(T{}, true);
    json out = json::object();
    FieldWriter w(out, every_field ? nullptr : &defaults);
    const_cast<T&>(x).fields(w);  // fields() hands out references; the writer only reads them
    return out;
}

// Gemma 2 and Gemma 3 (text): rotary, decoder-only, Gemma's RMSNorm (1 + γ) before and after each sublayer, a gated
// FFN; Gemma 3 norms each head of Q and K.
Status validate_gemma(const ModelConfig& c) {
    auto bad = [&](const std::string& m) { return Status(Error{"config: family " + to_string(c.family) + " " + m}); };
    if (c.arch != Arch::decoder_only) return bad("is decoder_only");
    if (c.positional != Positional::rotary) return bad("has rotary positions");
    if (c.norm != NormKind::rms_norm_plus_one || !c.norm_first || !c.post_sublayer_norm)
        return bad("has RMSNorm (1 + γ) before and after each sublayer (rms_norm_plus_one, norm_first, "
                   "post_sublayer_norm)");
    if (!c.gated_ffn) return bad("has a gated FFN (gated_ffn must be true)");
    if (c.qk_norm != (c.family == Family::gemma3) || c.qk_norm_across_heads)
        return bad(c.family == Family::gemma3 ? "norms each head of Q and K (qk_norm)" : "has no norm of Q and K");
    if (c.n_experts != 0) return bad("has no experts (n_experts must be 0)");
    return ok_status();
}

// ModernBERT: encoder-only, pre-LN with its embedding LayerNorm and a final one, RoPE, a gated FFN packed in Wi, the
// MLM head (or none); no grouped-query attention or head norms.
Status validate_modernbert(const ModelConfig& c) {
    auto bad = [&](const std::string& m) { return Status(Error{"config: family modernbert " + m}); };
    if (c.arch != Arch::encoder_only) return bad("is encoder_only");
    if (c.positional != Positional::rotary) return bad("has rotary positions");
    if (c.norm != NormKind::layer_norm || !c.norm_first || !c.embedding_norm || !c.final_norm)
        return bad("has pre-LN LayerNorms, an embedding LayerNorm and a final one");
    if (!c.gated_ffn) return bad("has a gated FFN (gated_ffn must be true)");
    if (c.output_head == OutputHead::linear) return bad("has an output_head of transform (MLM) or none");
    if (c.type_vocab_size != 0 || c.head_dim != 0 || c.n_kv_heads != 0 || c.qk_norm || c.n_experts != 0)
        return bad("has no token types, head_dim, n_kv_heads, qk_norm or experts");
    if (c.post_sublayer_norm || c.attention_softcap > 0.0f || c.logit_softcap > 0.0f)
        return bad("has no norms after the sublayers and no soft-capping");
    return ok_status();
}

// Each family's files name only some of the switches' tensors; a switch without names is refused.
Status validate_family(const ModelConfig& c) {
    auto bad = [&](const std::string& m) { return Status(Error{"config: family " + to_string(c.family) + " " + m}); };
    if (c.type_vocab_size < 0 || c.type_vocab_size > (1 << 16)) return Error{"config: type_vocab_size out of range"};
    if (c.family == Family::modernbert) return validate_modernbert(c);
    if (!c.norm_bias || !c.first_attention_norm || !c.head_bias || !c.logits_bias)
        return bad("has β in every LayerNorm, layer 0's attention norm and the head's biases (only modernbert drops "
                   "them)");
    if (c.family != Family::bert) {
        if (c.type_vocab_size != 0) return bad("has no token-type embeddings (type_vocab_size must be 0)");
        if (c.embedding_norm && c.family != Family::bloom)
            return bad("has no embedding LayerNorm (embedding_norm must be false)");
        if (c.output_head != OutputHead::linear) return bad("has only a linear output_head");
    }
    if (c.family == Family::gemma2 || c.family == Family::gemma3) return validate_gemma(c);
    if (c.post_sublayer_norm || c.attention_softcap > 0.0f || c.logit_softcap > 0.0f)
        return bad("has no norms after the sublayers and no soft-capping (only gemma2 and gemma3)");
    if (c.family == Family::gpt2 && c.arch != Arch::decoder_only) return bad("is decoder_only");
    if (c.family == Family::marian) {  // its files have no final norms and no position table
        if (c.arch != Arch::encoder_decoder) return bad("is encoder_decoder");
        if (c.final_norm) return bad("has no final LayerNorm (final_norm must be false)");
        if (c.positional == Positional::learned) return bad("has no learned positions");
    }
    if (c.family == Family::t5) {  // T5 v1.0 and Flan-T5's v1.1: pre-norm RMSNorm blocks, no biases, relative buckets
        if (c.arch != Arch::encoder_decoder) return bad("is encoder_decoder");
        if (c.positional != Positional::relative_buckets && c.positional != Positional::none)
            return bad("has relative_buckets positions or none");
        if (c.norm != NormKind::rms_norm) return bad("has RMSNorm (its norms have no β)");
        if (c.qkv_bias || c.out_bias || c.ffn_bias) return bad("has no biases (qkv_bias, out_bias, ffn_bias false)");
        if (c.n_kv_heads != 0 || c.qk_norm) return bad("has no n_kv_heads or qk_norm");
    }
    if (c.positional == Positional::relative_buckets && c.family != Family::t5)
        return bad("has no relative position buckets (only t5)");
    if (c.family == Family::bloom) {  // pre-LN with a LayerNorm over the embeddings, ALiBi, tied head
        if (c.arch != Arch::decoder_only) return bad("is decoder_only");
        if (c.positional != Positional::alibi && c.positional != Positional::none)  // the switch may drop ALiBi
            return bad("has alibi positions or none");
        if (!c.embedding_norm || !c.norm_first) return bad("has pre-LN and an embedding LayerNorm");
    }
    if (c.positional == Positional::alibi && c.family != Family::bloom) return bad("has no ALiBi (only bloom)");
    if (uses_llama_template(c.family)) {  // the switches may move its norms, change its activation, drop RoPE
        if (c.arch != Arch::decoder_only) return bad("is decoder_only");
        if (c.positional != Positional::rotary && c.positional != Positional::none)
            return bad("has rotary positions or none");
        if (c.norm != NormKind::rms_norm) return bad("has RMSNorm (its norms have no β)");
        if (!c.gated_ffn) return bad("has a gated FFN (gated_ffn must be true)");
    } else if (c.family != Family::t5) {
        if (c.positional == Positional::rotary || c.norm != NormKind::layer_norm || c.gated_ffn || !c.qkv_bias ||
            !c.out_bias || !c.ffn_bias || c.head_dim != 0 || c.n_kv_heads != 0)
            return bad(
                "has none of the Llama template's switches (rotary, rms_norm, gated_ffn, biases off, "
                "head_dim, n_kv_heads)");
    }
    if (c.qk_norm && c.family != Family::qwen3 && c.family != Family::qwen3_moe && c.family != Family::olmoe)
        return bad("has no norm of Q and K (qk_norm must be false)");
    const bool mixture = c.family == Family::olmoe || c.family == Family::qwen3_moe || c.family == Family::granitemoe;
    if (mixture != (c.n_experts > 0))
        return bad(mixture ? "is a mixture of experts (n_experts must be above 0)" : "has no experts (n_experts must be 0)");
    if (c.qk_norm_across_heads != (c.family == Family::olmoe && c.qk_norm))
        return bad(c.family == Family::olmoe ? "normalises Q and K across the heads (qk_norm, qk_norm_across_heads)"
                                             : "has no norm of Q and K across the heads (qk_norm_across_heads)");
    if (c.sliding_window != 0 && c.family != Family::mistral)
        return bad("has no sliding window (sliding_window must be 0)");
    if (c.family == Family::bert) {
        if (c.arch != Arch::encoder_only) return bad("is encoder_only");
        if (c.final_norm) return bad("has no final LayerNorm (final_norm must be false)");
        if (c.output_head == OutputHead::linear) return bad("has an output_head of transform (MLM) or none");
    }
    return ok_status();
}

Status validate_rope(const RopeConfig& r) {
    auto bad = [](const std::string& m) { return Status(Error{"config: rope " + m}); };
    auto positive = [](float x) { return x > 0.0f && std::isfinite(x); };
    if (!positive(r.theta) || r.theta <= 1.0f) return bad("theta must be a number above 1");
    if (r.scaling == RopeScaling::none) return ok_status();
    if (!positive(r.factor)) return bad("factor must be positive");
    if (r.scaling == RopeScaling::llama3) {
        if (!positive(r.low_freq_factor) || !positive(r.high_freq_factor) || !(r.high_freq_factor > r.low_freq_factor))
            return bad("low_freq_factor and high_freq_factor must be positive, high above low");
        if (r.original_max_position < 1) return bad("original_max_position must be at least 1");
    }
    return ok_status();
}

}  // namespace

std::string to_string(Arch a) { return kArchNames.name(a); }
std::string to_string(Activation a) { return kActivationNames.name(a); }
std::string to_string(Positional p) { return kPositionalNames.name(p); }
std::string to_string(Family f) { return kFamilyNames.name(f); }
std::string to_string(OutputHead h) { return kOutputHeadNames.name(h); }
std::string to_string(NormKind n) { return kNormNames.name(n); }
std::string to_string(RopeScaling s) { return kRopeScalingNames.name(s); }
std::string to_string(SinusoidLayout l) { return kSinusoidLayoutNames.name(l); }

double kv_cache_bytes_per_token(const ModelConfig& c) {
    if (!c.has_decoder()) return 0.0;
    return 2.0 * c.n_decoder_layers * c.kv_heads() * c.d_head() * static_cast<double>(sizeof(float));
}

Stack last_stack(const ModelConfig& c) { return c.has_decoder() ? Stack::decoder : Stack::encoder; }

bool uses_llama_template(Family f) {
    if (f == Family::olmoe || f == Family::qwen3_moe || f == Family::granitemoe) return true;  // with experts
    return f == Family::llama || f == Family::mistral || f == Family::qwen2 || f == Family::qwen3 ||
           f == Family::smollm3;
}

Result<ModelConfig> config_from_json(const std::string& json_text) {
    json j = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return Error{"config: not valid JSON"};
    if (!j.is_object()) return Error{"config: must be a JSON object"};
    ModelConfig c;
    if (std::string error = read_fields(j, c, ""); !error.empty()) return Error{error};
    if (auto st = validate_config(c); !st) return st.error();
    return c;
}

std::string config_to_json(const ModelConfig& c) { return fields_json(c, false).dump(); }

namespace {

// The fields that differ from layer to layer, the attention's constants and the mixture of experts.
Status validate_layer_variants(const ModelConfig& c) {
    auto bad = [](const std::string& m) { return Status(Error{"config: " + m}); };
    const int layers = c.has_decoder() ? c.n_decoder_layers : c.n_encoder_layers;
    const bool one_stack = c.arch != Arch::encoder_decoder;
    const std::pair<const char*, const std::vector<int>*> lists[] = {
        {"local_layers", &c.local_layers}, {"no_rope_layers", &c.no_rope_layers}, {"dense_layers", &c.dense_layers}};
    for (auto [name, list] : lists)
        for (const int layer : *list)
            if (!one_stack || layer >= layers)
                return bad(std::string(name) + " names layer " + std::to_string(layer) + " of a stack of " +
                           std::to_string(layers));
    if (!c.local_layers.empty() && c.sliding_window < 1) return bad("local_layers need a sliding_window");
    if (!c.no_rope_layers.empty() && c.positional != Positional::rotary)
        return bad("no_rope_layers need rotary positions");
    const std::pair<const char*, float> non_negative[] = {{"local_rope_theta", c.local_rope_theta},
                                                          {"attention_scale", c.attention_scale},
                                                          {"attention_softcap", c.attention_softcap},
                                                          {"logit_softcap", c.logit_softcap}};
    for (auto [name, x] : non_negative)
        if (!(x >= 0.0f) || !std::isfinite(x)) return bad(std::string(name) + " must be 0 (none) or positive");
    const std::pair<const char*, float> positive[] = {{"embedding_multiplier", c.embedding_multiplier},
                                                      {"residual_multiplier", c.residual_multiplier},
                                                      {"logit_scale", c.logit_scale}};
    for (auto [name, x] : positive)
        if (!(x > 0.0f) || !std::isfinite(x)) return bad(std::string(name) + " must be positive");
    if (c.positional == Positional::relative_buckets &&
        (c.relative_buckets < 2 || c.relative_buckets > 4096 || c.relative_max_distance < 1))
        return bad("relative_buckets must be in 2..4096 and relative_max_distance positive");
    if (c.n_experts < 0 || c.n_experts > 4096) return bad("n_experts must be in 0..4096");
    if (c.n_experts > 0 && (c.experts_per_token < 1 || c.experts_per_token > c.n_experts))
        return bad("experts_per_token must be in 1..n_experts (" + std::to_string(c.n_experts) + ")");
    if (c.n_experts > 0 && (c.expert_d_ff < 1 || c.expert_d_ff > 8 * (1 << 16)))
        return bad("expert_d_ff must be in 1.." + std::to_string(8 * (1 << 16)));
    if (c.n_experts == 0 && (c.experts_per_token != 0 || !c.dense_layers.empty()))
        return bad("experts_per_token and dense_layers need n_experts");
    return ok_status();
}

}  // namespace

Status validate_config(const ModelConfig& c) {
    auto bad = [](const std::string& m) { return Status(Error{"config: " + m}); };
    constexpr int kMaxDim = 1 << 16, kMaxLayers = 256, kMaxVocab = 1 << 22, kMaxLen = 1 << 20;
    if (c.d_model < 1 || c.d_model > kMaxDim) return bad("d_model must be in 1.." + std::to_string(kMaxDim));
    if (c.n_heads < 1 || c.n_heads > kMaxDim) return bad("n_heads must be in 1.." + std::to_string(kMaxDim));
    if (c.head_dim < 0 || c.head_dim > kMaxDim) return bad("head_dim must be in 0.." + std::to_string(kMaxDim));
    if (c.head_dim == 0 && c.d_model % c.n_heads != 0)
        return bad("n_heads must divide d_model (" + std::to_string(c.d_model) + ")");
    if (c.n_kv_heads < 0 || (c.n_kv_heads > 0 && c.n_heads % c.n_kv_heads != 0))
        return bad("n_kv_heads " + std::to_string(c.n_kv_heads) + " must divide n_heads " + std::to_string(c.n_heads));
    if (c.sliding_window < 0) return bad("sliding_window must be 0 (none) or positive");
    if (c.positional == Positional::rotary) {
        if (c.d_head() % 2 != 0)
            return bad("a rotary model's head width D " + std::to_string(c.d_head()) + " must be even");
        if (auto st = validate_rope(c.rope); !st) return st;
    }
    if (c.d_ff < 1 || c.d_ff > 8 * kMaxDim) return bad("d_ff must be in 1.." + std::to_string(8 * kMaxDim));
    if (c.n_encoder_layers < 0 || c.n_encoder_layers > kMaxLayers) return bad("n_encoder_layers out of range");
    if (c.n_decoder_layers < 0 || c.n_decoder_layers > kMaxLayers) return bad("n_decoder_layers out of range");
    if (c.arch == Arch::encoder_only && c.n_decoder_layers != 0)
        return bad("an encoder_only model has n_decoder_layers 0");
    if (c.arch == Arch::decoder_only && c.n_encoder_layers != 0)
        return bad("a decoder_only model has n_encoder_layers 0");
    if (c.has_encoder() && c.n_encoder_layers < 1) return bad("n_encoder_layers must be at least 1");
    if (c.has_decoder() && c.n_decoder_layers < 1) return bad("n_decoder_layers must be at least 1");
    if (c.max_len < 1 || c.max_len > kMaxLen) return bad("max_len must be in 1.." + std::to_string(kMaxLen));
    if (!(c.layer_norm_eps > 0.0f) || !std::isfinite(c.layer_norm_eps)) return bad("layer_norm_eps must be positive");
    const bool needs_src = c.has_encoder(), needs_tgt = c.has_decoder();
    if (needs_src && (c.src_vocab_size < 1 || c.src_vocab_size > kMaxVocab)) return bad("src_vocab_size out of range");
    if (needs_tgt && (c.tgt_vocab_size < 1 || c.tgt_vocab_size > kMaxVocab)) return bad("tgt_vocab_size out of range");
    const int vocab = needs_tgt ? c.tgt_vocab_size : c.src_vocab_size;
    const std::pair<const char*, int> ids[] = {
        {"pad_id", c.pad_id}, {"sos_id", c.sos_id}, {"eos_id", c.eos_id}, {"unk_id", c.unk_id}};
    for (auto [name, id] : ids) {
        if (id == -1 && c.family != Family::transformer) continue;  // the model has no such token
        if (id < 0 || id >= vocab || (needs_src && id >= c.src_vocab_size))
            return bad(std::string(name) + " " + std::to_string(id) + " is outside the vocabulary");
    }
    for (const int id : c.never_generated)
        if (id < 0 || id >= c.output_vocab_size())
            return bad("never_generated id " + std::to_string(id) + " is outside the vocabulary");
    if (auto st = validate_layer_variants(c); !st) return st;
    return validate_family(c);
}

Result<ModelConfig> preset_config(const std::string& name, int src_vocab_size, int tgt_vocab_size) {
    ModelConfig c;
    if (name == "tiny") {
        c.d_model = 64;
        c.n_heads = 4;
        c.n_encoder_layers = 2;
        c.n_decoder_layers = 2;
        c.d_ff = 256;
        c.max_len = 64;
    } else if (name == "base") {
        c.d_model = 512;
        c.n_heads = 8;
        c.n_encoder_layers = 6;
        c.n_decoder_layers = 6;
        c.d_ff = 2048;
        c.max_len = 256;
    } else {
        return Error{"unknown preset '" + name + "' (expected tiny or base)"};
    }
    c.src_vocab_size = src_vocab_size;
    c.tgt_vocab_size = tgt_vocab_size;
    if (auto st = validate_config(c); !st) return st.error();
    return c;
}

}  // namespace attnlab
