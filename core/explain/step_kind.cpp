// Step path + config -> explanation kind, following the step names of core/forward/.
#include "explain/step_kind.h"

namespace attnlab {

namespace {

bool has(const std::string& path, const char* part) { return path.find(part) != std::string::npos; }

std::string after_last_dot(const std::string& path) { return path.substr(path.rfind('.') + 1); }

std::optional<std::string> attention_kind(const std::string& path) {
    const std::string stage = after_last_dot(path);
    if (stage == "q" || stage == "k" || stage == "v") return (has(path, ".cross_attn.") ? "cross_attn." : "self_attn.") + stage;
    for (const char* s : {"scores", "scaled", "masked", "weights", "context", "concat", "out"})
        if (stage == s) return "attn." + stage;
    return std::nullopt;
}

}  // namespace

std::optional<std::string> explanation_kind(const std::string& path, const ModelConfig& c) {
    if (path == "src.embed" || path == "tgt.embed") return c.scale_embedding ? "embed_scaled" : "embed";
    if (path == "src.pos" || path == "tgt.pos") return c.positional == Positional::learned ? "pos_learned" : "pos_sinusoidal";
    if (path == "src.input" || path == "tgt.input") return "input";
    if (path.starts_with("masks.")) return path;  // each mask has its own texts
    if (has(path, "_attn.")) return attention_kind(path);
    if (has(path, ".residual")) return c.norm_first ? "residual_pre_ln" : "residual_post_ln";
    if (has(path, ".norm")) return c.norm_first ? "norm_pre_ln" : "norm_post_ln";
    if (path.ends_with(".ffn.activation")) return "ffn." + to_string(c.activation);
    if (path.ends_with(".ffn.hidden") || path.ends_with(".ffn.out")) return "ffn." + after_last_dot(path);
    if (path == "encoder.output" || path == "decoder.output") return c.final_norm ? "stack_output_norm" : "stack_output_plain";
    if (path == "logits") return c.tie_embeddings ? "logits_tied" : "logits";
    if (path == "probs") return "probs";
    return std::nullopt;
}

}  // namespace attnlab
