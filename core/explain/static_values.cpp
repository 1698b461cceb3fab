// Placeholders known before a step runs: the model's sizes, the step's side, stack, layer,
// sublayer and attention use (all from its record), whether the focused head is switched off,
// and how its linear map is written (x·Wᵀ for an (out, in) weight, x·W for GPT-2's (in, out)).
#include "explain/number_format.h"
#include "explain/step_values.h"
#include "forward/mechanisms/feed_forward.h"
#include "forward/step_path.h"
#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/stream_multipliers.h"
#include "param_names.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace attnlab {

namespace {

// Which sublayer residual/norm k wraps: a decoder layer of an encoder-decoder has self, cross, FFN.
const char* sublayer_term(const StepId& id, const ModelConfig& c) {
    const bool cross_block = id.stack == Stack::decoder && c.arch == Arch::encoder_decoder;
    if (id.sublayer == 1) return "self_attn";
    return cross_block && id.sublayer == 2 ? "cross_attn" : "ffn";
}

// What reads a stack's output: the decoder's cross-attention (an encoder-decoder's encoder),
// the output head, or nothing in the model (a BERT without its MLM head).
const char* stack_role_term(Stack stack, const ModelConfig& c) {
    if (stack == Stack::encoder && c.arch == Arch::encoder_decoder) return "role_memory";
    return c.output_head == OutputHead::none ? "role_features" : "role_head";
}

bool head_ablated(const StepSite& s, int head) {
    const auto& ablated = s.stepper.inputs().ablated_heads;
    const auto it = ablated.find(s.id().site());
    return it != ablated.end() && it->second.count(head) > 0;
}

// The linear map a step applies, if it is one (param_names.h): its layout and bias decide
// how core writes its formula.
std::optional<LinearParams> linear_map_of(const StepId& id, const ModelConfig& c) {
    switch (id.kind) {
        case StepKind::attention: {
            const LayerParams layer = layer_params(c, id.stack, id.layer);
            const AttentionParams& a = id.use == AttentionUse::cross ? *layer.cross_attn : layer.self_attn;
            switch (id.stage) {
                case AttentionStage::q: return a.q;
                case AttentionStage::k: return a.k;
                case AttentionStage::v: return a.v;
                case AttentionStage::out: return a.out;
                default: return std::nullopt;
            }
        }
        case StepKind::ffn: {
            const LayerParams layer = layer_params(c, id.stack, id.layer);
            if (layer.experts) return id.part == FfnPart::router ? std::optional(layer.experts->router) : std::nullopt;
            switch (id.part) {
                case FfnPart::hidden:
                case FfnPart::up: return layer.ffn_in;
                case FfnPart::gate: return layer.ffn_gate;
                case FfnPart::out: return layer.ffn_out;
                default: return std::nullopt;
            }
        }
        case StepKind::head_transform: return head_params(c).transform;
        case StepKind::logits: return head_params(c).unembed;
        default: return std::nullopt;
    }
}

// The name core's formula gives the bias of a step's linear map: b_Q, b_1, b_gate, …
std::string bias_symbol(const StepId& id, const ModelConfig& c) {
    if (id.kind == StepKind::head_transform) return "b_t";
    if (id.kind == StepKind::attention) {
        switch (id.stage) {
            case AttentionStage::q: return "b_Q";
            case AttentionStage::k: return "b_K";
            case AttentionStage::v: return "b_V";
            default: return "b_O";
        }
    }
    return FeedForwardMechanism(c).bias_symbol(id.part);
}

// How the texts name a family ("SmolLM3 "), with a space for "This {family_space}model"; "" for ours, which has no
// family; a family not listed by its model_type.
constexpr std::pair<Family, const char*> kFamilyTitles[] = {
    {Family::gpt2, "GPT-2"},       {Family::bert, "BERT"},         {Family::llama, "Llama"},
    {Family::mistral, "Mistral"},  {Family::qwen2, "Qwen2"},       {Family::qwen3, "Qwen3"},
    {Family::marian, "Marian"},    {Family::t5, "T5"},             {Family::bloom, "BLOOM"},
    {Family::smollm3, "SmolLM3"},  {Family::gemma2, "Gemma 2"},    {Family::gemma3, "Gemma 3"},
    {Family::olmoe, "OLMoE"},      {Family::qwen3_moe, "Qwen3-MoE"}, {Family::granitemoe, "Granite-MoE"},
    {Family::modernbert, "ModernBERT"}};

std::string family_space(Family family) {
    if (family == Family::transformer) return "";
    for (const auto& [f, title] : kFamilyTitles)
        if (f == family) return std::string(title) + " ";
    return to_string(family) + " ";
}

// A NoPE layer's texts: which layers of the stack leave RoPE out ("3", "3, 7"), of how many.
void add_nope_values(const ModelConfig& c, StepValues& v) {
    std::string layers;
    for (const int layer : c.no_rope_layers) layers += (layers.empty() ? "" : ", ") + std::to_string(layer);
    v.text["nope_layers"] = layers;
    v.text["nope_count"] = std::to_string(c.no_rope_layers.size());
    v.text["stack_layers"] = std::to_string(c.has_decoder() ? c.n_decoder_layers : c.n_encoder_layers);
}

void add_stack_terms(Stack stack, const ModelConfig& c, StepValues& v) {
    v.terms["stack"] = stack == Stack::encoder ? "encoder" : "decoder";
    v.terms["stack_role"] = stack_role_term(stack, c);
}

}  // namespace

void add_static_values(const StepSite& s, StepValues& v) {
    const ModelConfig& c = s.config();
    const StepId& id = s.id();
    v.text["C"] = std::to_string(c.d_model);
    v.text["H"] = std::to_string(c.n_heads);
    v.text["family_space"] = family_space(c.family);
    v.text["D"] = std::to_string(c.d_head());
    v.text["HD"] = std::to_string(c.attention_width());
    v.text["F"] = std::to_string(c.d_ff);
    v.text["V"] = std::to_string(c.output_vocab_size());
    v.text["max_len"] = std::to_string(c.max_len);
    v.text["buckets"] = std::to_string(c.relative_buckets);  // T5's relative position buckets
    v.text["max_distance"] = std::to_string(c.relative_max_distance);
    v.text["window"] = std::to_string(c.sliding_window);
    v.text["window_back"] = std::to_string(std::max(0, c.sliding_window - 1));  // the keys a local query sees before it
    const bool grouped = c.kv_heads() != c.n_heads;  // query head h reads K/V head g(h)
    v.text["kv_index"] = grouped ? "g(h)" : "h";
    v.text["kv_rule"] = grouped ? ", g(h) = ⌊h·H_kv/H⌋" : "";
    v.text["d_rule"] = c.head_dim > 0 ? "" : " = C/H";  // D is C/H unless the family sets it apart
    v.text["n_types"] = std::to_string(c.type_vocab_size);
    v.text["sqrtC"] = format_number(std::sqrt(static_cast<double>(c.d_model)));
    v.text["sqrtD"] = format_number(std::sqrt(static_cast<double>(c.d_head())));
    v.text["scale"] = format_number(static_cast<double>(c.attention_scale));  // attn.scaled_by's s
    v.text["score_cap"] = format_number(static_cast<double>(c.attention_softcap));  // Gemma 2's soft caps
    v.text["logit_cap"] = format_number(static_cast<double>(c.logit_softcap));
    v.text["head"] = std::to_string(s.head());
    add_numbers(StreamMultiplierMechanism(c).numbers(), v);  // m_emb, m_res (Granite's)
    v.text["branch"] = NormMechanism(c).branch_formula_at(id.layer, id.sublayer);  // what a residual add adds: Sublayer(RMSNorm(x)), …

    switch (id.kind) {
        case StepKind::token_embedding:
        case StepKind::position:
        case StepKind::token_type:
        case StepKind::embedding_sum:
        case StepKind::embedding_norm:
        case StepKind::padding_mask: {
            const bool src = id.stack == Stack::encoder;
            v.text["E"] = src ? "E_src" : "E_tgt";
            v.terms["side"] = src ? "source" : "target";
            v.terms["Side"] = src ? "Source" : "Target";
            break;
        }
        case StepKind::attention:
            add_stack_terms(id.stack, c, v);
            v.terms["attention"] = to_string(id.use);
            v.terms["head_state"] = head_ablated(s, s.head()) ? "head_off" : "head_on";
            if (id.stage == AttentionStage::scores) add_nope_values(c, v);
            if (id.stage == AttentionStage::masked) {  // what it reads: scaled, biased (ALiBi, T5), capped (Gemma 2)
                const char* read = to_string(s.step.inputs.front().stage);
                v.text["mask_input"] = read;
                v.terms["mask_input_scores"] = std::string("scores_") + read;
            }
            break;
        case StepKind::residual:
        case StepKind::norm:
        case StepKind::post_norm:
            add_stack_terms(id.stack, c, v);
            v.text["k"] = std::to_string(id.sublayer);
            v.terms["sublayer"] = sublayer_term(id, c);
            break;
        case StepKind::ffn:
            v.text["n_experts"] = std::to_string(c.n_experts);  // a mixture of experts' sizes
            v.text["top_k"] = std::to_string(c.experts_per_token);
            v.text["expert_F"] = std::to_string(c.expert_d_ff);
            add_stack_terms(id.stack, c, v);
            break;
        case StepKind::stack_output: add_stack_terms(id.stack, c, v); break;
        case StepKind::logits: {  // the constant the logits are multiplied by (T5's tied d_model^−½), when not 1
            const bool scaled = c.logit_scale != 1.0f;
            v.text["times_logit_scale"] = scaled ? " · s" : "";  // as the step's formula writes it
            v.text["logit_scale_value"] =
                scaled ? ";  s = " + format_number(static_cast<double>(c.logit_scale)) : std::string();
            v.terms["logit_scale_note"] = scaled ? "logit_scale_on" : "logit_scale_off";
            break;
        }
        default: break;
    }
    if (const auto map = linear_map_of(id, c)) {  // core writes x·Wᵀ + b (out, in) or x·W + b (in, out)
        v.text["transpose"] = map->layout == WeightLayout::out_in ? "ᵀ" : "";
        v.text["plus_b"] = map->bias.empty() ? "" : " + b";
        v.text["plus_bias"] = map->bias.empty() ? "" : " + " + bias_symbol(id, c);
    }
}

}  // namespace attnlab
