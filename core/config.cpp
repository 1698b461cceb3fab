// ModelConfig <-> JSON, validation, and the named presets.
#include "config.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <set>

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
constexpr EnumNames<Positional, 4> kPositionalNames{{{{Positional::sinusoidal, "sinusoidal"},
                                                      {Positional::learned, "learned"},
                                                      {Positional::none, "none"},
                                                      {Positional::rotary, "rotary"}}}};
constexpr EnumNames<Family, 8> kFamilyNames{{{{Family::transformer, "transformer"},
                                              {Family::gpt2, "gpt2"},
                                              {Family::bert, "bert"},
                                              {Family::llama, "llama"},
                                              {Family::mistral, "mistral"},
                                              {Family::qwen2, "qwen2"},
                                              {Family::qwen3, "qwen3"},
                                              {Family::marian, "marian"}}}};
constexpr EnumNames<SinusoidLayout, 2> kSinusoidLayoutNames{
    {{{SinusoidLayout::interleaved, "interleaved"}, {SinusoidLayout::halves, "halves"}}}};
constexpr EnumNames<NormKind, 2> kNormNames{{{{NormKind::layer_norm, "layer_norm"}, {NormKind::rms_norm, "rms_norm"}}}};
constexpr EnumNames<RopeScaling, 3> kRopeScalingNames{
    {{{RopeScaling::none, "none"}, {RopeScaling::linear, "linear"}, {RopeScaling::llama3, "llama3"}}}};
constexpr EnumNames<OutputHead, 3> kOutputHeadNames{
    {{{OutputHead::linear, "linear"}, {OutputHead::transform, "transform"}, {OutputHead::none, "none"}}}};

const std::set<std::string> kFields = {"arch",
                                       "d_model",
                                       "n_heads",
                                       "n_encoder_layers",
                                       "n_decoder_layers",
                                       "d_ff",
                                       "activation",
                                       "norm_first",
                                       "final_norm",
                                       "positional",
                                       "sinusoid_layout",
                                       "max_len",
                                       "scale_embedding",
                                       "tie_embeddings",
                                       "layer_norm_eps",
                                       "src_vocab_size",
                                       "tgt_vocab_size",
                                       "pad_id",
                                       "sos_id",
                                       "eos_id",
                                       "unk_id",
                                       "family",
                                       "type_vocab_size",
                                       "embedding_norm",
                                       "output_head",
                                       "n_kv_heads",
                                       "head_dim",
                                       "norm",
                                       "gated_ffn",
                                       "qkv_bias",
                                       "out_bias",
                                       "ffn_bias",
                                       "qk_norm",
                                       "sliding_window",
                                       "rope",
                                       "never_generated"};

// Reads one field of the config object into `out`, or explains why it cannot.
class FieldReader {
public:
    explicit FieldReader(const json& j) : j_(j) {}
    const std::string& error() const { return error_; }
    bool has(const char* key) const { return j_.contains(key); }

    void get_int(const char* key, int& out) {
        const json* v = find(key);
        if (!v) return;
        if (!v->is_number_integer()) return fail(key, "must be an integer");
        const auto x = v->get<int64_t>();
        if (x < -1000000000 || x > 1000000000) return fail(key, "is out of range");
        out = static_cast<int>(x);
    }
    void get_bool(const char* key, bool& out) {
        const json* v = find(key);
        if (!v) return;
        if (!v->is_boolean()) return fail(key, "must be true or false");
        out = v->get<bool>();
    }
    void get_float(const char* key, float& out) {
        const json* v = find(key);
        if (!v) return;
        if (!v->is_number()) return fail(key, "must be a number");
        out = v->get<float>();
    }
    void get_ids(const char* key, std::vector<int>& out) {
        const json* v = find(key);
        if (!v) return;
        if (!v->is_array()) return fail(key, "must be a list of token ids");
        out.clear();
        for (const json& id : *v) {
            if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > 1000000000)
                return fail(key, "must be a list of token ids");
            out.push_back(id.get<int>());
        }
    }
    template <class E, size_t N>
    void get_enum(const char* key, const EnumNames<E, N>& names, E& out) {
        const json* v = find(key);
        if (!v) return;
        if (!v->is_string() || !names.parse(v->get<std::string>(), out))
            return fail(key, "must be one of " + names.choices());
    }

private:
    const json* find(const char* key) {
        if (!error_.empty()) return nullptr;
        auto it = j_.find(key);
        if (it == j_.end()) {
            error_ = std::string("config: missing field '") + key + "'";
            return nullptr;
        }
        return &*it;
    }
    void fail(const char* key, const std::string& why) { error_ = std::string("config: field '") + key + "' " + why; }
    const json& j_;
    std::string error_;
};

// Each family's files name only some of the switches' tensors; a switch without names is refused.
Status validate_family(const ModelConfig& c) {
    auto bad = [&](const std::string& m) { return Status(Error{"config: family " + to_string(c.family) + " " + m}); };
    if (c.type_vocab_size < 0 || c.type_vocab_size > (1 << 16)) return Error{"config: type_vocab_size out of range"};
    if (c.family != Family::bert) {
        if (c.type_vocab_size != 0) return bad("has no token-type embeddings (type_vocab_size must be 0)");
        if (c.embedding_norm) return bad("has no embedding LayerNorm (embedding_norm must be false)");
        if (c.output_head != OutputHead::linear) return bad("has only a linear output_head");
    }
    if (c.family == Family::gpt2 && c.arch != Arch::decoder_only) return bad("is decoder_only");
    if (c.family == Family::marian) {  // its files have no final norms and no position table
        if (c.arch != Arch::encoder_decoder) return bad("is encoder_decoder");
        if (c.final_norm) return bad("has no final LayerNorm (final_norm must be false)");
        if (c.positional == Positional::learned) return bad("has no learned positions");
    }
    if (uses_llama_template(c.family)) {  // the switches may move its norms, change its activation, drop RoPE
        if (c.arch != Arch::decoder_only) return bad("is decoder_only");
        if (c.positional != Positional::rotary && c.positional != Positional::none)
            return bad("has rotary positions or none");
        if (c.norm != NormKind::rms_norm) return bad("has RMSNorm (its norms have no β)");
        if (!c.gated_ffn) return bad("has a gated FFN (gated_ffn must be true)");
    } else {
        if (c.positional == Positional::rotary || c.norm != NormKind::layer_norm || c.gated_ffn || !c.qkv_bias ||
            !c.out_bias || !c.ffn_bias || c.head_dim != 0 || c.n_kv_heads != 0)
            return bad(
                "has none of the Llama template's switches (rotary, rms_norm, gated_ffn, biases off, "
                "head_dim, n_kv_heads)");
    }
    if (c.qk_norm && c.family != Family::qwen3) return bad("has no norm of Q and K (qk_norm must be false)");
    if (c.sliding_window != 0 && c.family != Family::mistral)
        return bad("has no sliding window (sliding_window must be 0)");
    if (c.family == Family::bert) {
        if (c.arch != Arch::encoder_only) return bad("is encoder_only");
        if (c.final_norm) return bad("has no final LayerNorm (final_norm must be false)");
        if (c.output_head == OutputHead::linear) return bad("has an output_head of transform (MLM) or none");
    }
    return ok_status();
}

const std::set<std::string> kRopeFields = {"theta",           "scaling",          "factor",
                                           "low_freq_factor", "high_freq_factor", "original_max_position"};

Result<RopeConfig> rope_from_json(const json& j) {
    if (!j.is_object()) return Error{"config: field 'rope' must be an object"};
    for (auto& [key, value] : j.items())
        if (!kRopeFields.count(key))
            return Error{"config: unknown field rope." +
                         nlohmann::json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
    RopeConfig rope;
    FieldReader r(j);
    r.get_float("theta", rope.theta);
    r.get_enum("scaling", kRopeScalingNames, rope.scaling);
    if (r.has("factor")) r.get_float("factor", rope.factor);
    if (r.has("low_freq_factor")) r.get_float("low_freq_factor", rope.low_freq_factor);
    if (r.has("high_freq_factor")) r.get_float("high_freq_factor", rope.high_freq_factor);
    if (r.has("original_max_position")) r.get_int("original_max_position", rope.original_max_position);
    if (!r.error().empty()) return Error{"config: rope: " + r.error().substr(std::string("config: ").size())};
    return rope;
}

json rope_to_json(const RopeConfig& rope) {
    json j = {{"theta", rope.theta}, {"scaling", to_string(rope.scaling)}};
    if (rope.scaling != RopeScaling::none) j["factor"] = rope.factor;
    if (rope.scaling == RopeScaling::llama3) {
        j["low_freq_factor"] = rope.low_freq_factor;
        j["high_freq_factor"] = rope.high_freq_factor;
        j["original_max_position"] = rope.original_max_position;
    }
    return j;
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

std::string describe_architecture(const ModelConfig& c) {
    const bool rms = c.norm == NormKind::rms_norm;
    std::string s = to_string(c.arch) + ", ";
    s += rms ? (c.norm_first ? "pre-norm RMSNorm" : "post-norm RMSNorm") : (c.norm_first ? "pre-LN" : "post-LN");
    s += c.gated_ffn ? ", gated FFN (" + to_string(c.activation) + ")" : ", " + to_string(c.activation) + " FFN";
    s += ", " + to_string(c.positional) + " positions";
    if (c.positional == Positional::sinusoidal && c.sinusoid_layout == SinusoidLayout::halves)
        s += " (sines, then cosines)";
    if (c.positional == Positional::rotary) {
        char rope[96];
        std::snprintf(rope, sizeof rope, " (θ %g%s", static_cast<double>(c.rope.theta),
                      c.rope.scaling == RopeScaling::none ? ")" : ", ");
        s += rope;
        if (c.rope.scaling != RopeScaling::none) {
            std::snprintf(rope, sizeof rope, "%s ×%g)", to_string(c.rope.scaling).c_str(),
                          static_cast<double>(c.rope.factor));
            s += rope;
        }
    }
    if (c.kv_heads() != c.n_heads)
        s += ", " + std::to_string(c.n_heads) + " query heads sharing " + std::to_string(c.kv_heads()) + " K/V head" +
             (c.kv_heads() == 1 ? "" : "s");
    if (c.qk_norm) s += ", RMSNorm of Q and K per head";
    if (c.sliding_window > 0) s += ", sliding window " + std::to_string(c.sliding_window);
    return s;
}

double kv_cache_bytes_per_token(const ModelConfig& c) {
    if (!c.has_decoder()) return 0.0;
    return 2.0 * c.n_decoder_layers * c.kv_heads() * c.d_head() * static_cast<double>(sizeof(float));
}

Stack last_stack(const ModelConfig& c) { return c.has_decoder() ? Stack::decoder : Stack::encoder; }

bool uses_llama_template(Family f) {
    return f == Family::llama || f == Family::mistral || f == Family::qwen2 || f == Family::qwen3;
}

Result<ModelConfig> config_from_json(const std::string& json_text) {
    json j = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return Error{"config: not valid JSON"};
    if (!j.is_object()) return Error{"config: must be a JSON object"};
    for (auto& [key, value] : j.items())
        if (!kFields.count(key))  // quoted as JSON, so a hostile key cannot break the one-line message
            return Error{"config: unknown field " +
                         nlohmann::json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};

    ModelConfig c;
    FieldReader r(j);
    r.get_enum("arch", kArchNames, c.arch);
    r.get_int("d_model", c.d_model);
    r.get_int("n_heads", c.n_heads);
    r.get_int("n_encoder_layers", c.n_encoder_layers);
    r.get_int("n_decoder_layers", c.n_decoder_layers);
    r.get_int("d_ff", c.d_ff);
    r.get_enum("activation", kActivationNames, c.activation);
    r.get_bool("norm_first", c.norm_first);
    r.get_bool("final_norm", c.final_norm);
    r.get_enum("positional", kPositionalNames, c.positional);
    r.get_int("max_len", c.max_len);
    r.get_bool("scale_embedding", c.scale_embedding);
    r.get_bool("tie_embeddings", c.tie_embeddings);
    r.get_float("layer_norm_eps", c.layer_norm_eps);
    r.get_int("src_vocab_size", c.src_vocab_size);
    r.get_int("tgt_vocab_size", c.tgt_vocab_size);
    r.get_int("pad_id", c.pad_id);
    r.get_int("sos_id", c.sos_id);
    r.get_int("eos_id", c.eos_id);
    r.get_int("unk_id", c.unk_id);
    if (r.has("family")) r.get_enum("family", kFamilyNames, c.family);
    if (r.has("type_vocab_size")) r.get_int("type_vocab_size", c.type_vocab_size);
    if (r.has("embedding_norm")) r.get_bool("embedding_norm", c.embedding_norm);
    if (r.has("output_head")) r.get_enum("output_head", kOutputHeadNames, c.output_head);
    if (r.has("n_kv_heads")) r.get_int("n_kv_heads", c.n_kv_heads);
    if (r.has("head_dim")) r.get_int("head_dim", c.head_dim);
    if (r.has("norm")) r.get_enum("norm", kNormNames, c.norm);
    if (r.has("gated_ffn")) r.get_bool("gated_ffn", c.gated_ffn);
    if (r.has("qkv_bias")) r.get_bool("qkv_bias", c.qkv_bias);
    if (r.has("out_bias")) r.get_bool("out_bias", c.out_bias);
    if (r.has("ffn_bias")) r.get_bool("ffn_bias", c.ffn_bias);
    if (r.has("qk_norm")) r.get_bool("qk_norm", c.qk_norm);
    if (r.has("sliding_window")) r.get_int("sliding_window", c.sliding_window);
    if (r.has("sinusoid_layout")) r.get_enum("sinusoid_layout", kSinusoidLayoutNames, c.sinusoid_layout);
    if (r.has("never_generated")) r.get_ids("never_generated", c.never_generated);
    if (!r.error().empty()) return Error{r.error()};
    if (r.has("rope")) {
        if (auto rope = rope_from_json(j["rope"]); rope)
            c.rope = *rope;
        else
            return rope.error();
    }
    if (auto st = validate_config(c); !st) return st.error();
    return c;
}

std::string config_to_json(const ModelConfig& c) {
    json j = json::object();
    j["arch"] = to_string(c.arch);
    j["d_model"] = c.d_model;
    j["n_heads"] = c.n_heads;
    j["n_encoder_layers"] = c.n_encoder_layers;
    j["n_decoder_layers"] = c.n_decoder_layers;
    j["d_ff"] = c.d_ff;
    j["activation"] = to_string(c.activation);
    j["norm_first"] = c.norm_first;
    j["final_norm"] = c.final_norm;
    j["positional"] = to_string(c.positional);
    j["max_len"] = c.max_len;
    j["scale_embedding"] = c.scale_embedding;
    j["tie_embeddings"] = c.tie_embeddings;
    j["layer_norm_eps"] = c.layer_norm_eps;
    j["src_vocab_size"] = c.src_vocab_size;
    j["tgt_vocab_size"] = c.tgt_vocab_size;
    j["pad_id"] = c.pad_id;
    j["sos_id"] = c.sos_id;
    j["eos_id"] = c.eos_id;
    j["unk_id"] = c.unk_id;
    const ModelConfig defaults;
    if (c.family != defaults.family) j["family"] = to_string(c.family);
    if (c.type_vocab_size != defaults.type_vocab_size) j["type_vocab_size"] = c.type_vocab_size;
    if (c.embedding_norm != defaults.embedding_norm) j["embedding_norm"] = c.embedding_norm;
    if (c.output_head != defaults.output_head) j["output_head"] = to_string(c.output_head);
    if (c.n_kv_heads != defaults.n_kv_heads) j["n_kv_heads"] = c.n_kv_heads;
    if (c.head_dim != defaults.head_dim) j["head_dim"] = c.head_dim;
    if (c.norm != defaults.norm) j["norm"] = to_string(c.norm);
    if (c.gated_ffn != defaults.gated_ffn) j["gated_ffn"] = c.gated_ffn;
    if (c.qkv_bias != defaults.qkv_bias) j["qkv_bias"] = c.qkv_bias;
    if (c.out_bias != defaults.out_bias) j["out_bias"] = c.out_bias;
    if (c.ffn_bias != defaults.ffn_bias) j["ffn_bias"] = c.ffn_bias;
    if (c.qk_norm != defaults.qk_norm) j["qk_norm"] = c.qk_norm;
    if (c.sliding_window != defaults.sliding_window) j["sliding_window"] = c.sliding_window;
    if (c.sinusoid_layout != defaults.sinusoid_layout) j["sinusoid_layout"] = to_string(c.sinusoid_layout);
    if (c.positional == Positional::rotary) j["rope"] = rope_to_json(c.rope);
    if (!c.never_generated.empty()) j["never_generated"] = c.never_generated;
    return j.dump();
}

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
