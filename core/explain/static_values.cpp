// Placeholders known before a step runs: the model's sizes, the step's side, stack, layer,
// sublayer and attention family, and whether the focused head is switched off.
#include "explain/number_format.h"
#include "explain/step_values.h"

#include <cmath>

namespace attnlab {

namespace {

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// Which sublayer residual/norm k wraps: a decoder layer of an encoder-decoder has self, cross, FFN.
const char* sublayer_term(const std::string& path, const ModelConfig& c) {
    const int k = path.back() - '0';
    const bool cross_block = path.starts_with("decoder.") && c.arch == Arch::encoder_decoder;
    if (k == 1) return "self_attn";
    return cross_block && k == 2 ? "cross_attn" : "ffn";
}

const char* attention_term(const std::string& path) {
    if (has(path, ".cross_attn.")) return "cross";
    return path.starts_with("encoder.") ? "encoder_self" : "decoder_self";
}

bool head_ablated(const StepSite& s, int head) {
    const auto& ablated = s.stepper.inputs().ablated_heads;
    const auto it = ablated.find(s.step.record.id.site());
    return it != ablated.end() && it->second.count(head) > 0;
}

}  // namespace

void add_static_values(const StepSite& s, const std::string& kind, StepValues& v) {
    const ModelConfig& c = s.config();
    const std::string& path = s.step.path;
    v.text["C"] = std::to_string(c.d_model);
    v.text["H"] = std::to_string(c.n_heads);
    v.text["D"] = std::to_string(c.d_head());
    v.text["F"] = std::to_string(c.d_ff);
    v.text["V"] = std::to_string(c.output_vocab_size());
    v.text["max_len"] = std::to_string(c.max_len);
    v.text["sqrtC"] = format_number(std::sqrt(static_cast<double>(c.d_model)));
    v.text["sqrtD"] = format_number(std::sqrt(static_cast<double>(c.d_head())));
    v.text["head"] = std::to_string(s.head());

    if (path.starts_with("src.") || path.starts_with("tgt.") || path.ends_with("_padding")) {
        const bool src = path.starts_with("src.") || path == "masks.src_padding";
        v.text["E"] = src ? "E_src" : "E_tgt";
        v.terms["side"] = src ? "source" : "target";
        v.terms["Side"] = src ? "Source" : "Target";
    }
    if (path.starts_with("encoder.") || path.starts_with("decoder.")) {
        const bool encoder = path.starts_with("encoder.");
        v.terms["stack"] = encoder ? "encoder" : "decoder";
        v.terms["stack_role"] = encoder && c.arch == Arch::encoder_decoder ? "role_memory" : "role_head";
    }
    if (kind.starts_with("residual") || kind.starts_with("norm")) {
        v.text["k"] = std::string(1, path.back());
        v.terms["sublayer"] = sublayer_term(path, c);
    }
    if (has(path, "_attn.")) {
        v.terms["attention"] = attention_term(path);
        v.terms["head_state"] = head_ablated(s, s.head()) ? "head_off" : "head_on";
    }
}

}  // namespace attnlab
