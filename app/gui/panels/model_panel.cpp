// The model view: what the model is (name, architecture, shapes, parameter count), the
// switches that change its computation, and making, opening and saving models.
#include "panels/input_fields.h"
#include "panels/model_files.h"
#include "panels/model_summary_text.h"
#include "panels/tour_target.h"

#include "position_choices.h"
#include "switch_choices.h"

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

namespace {

// 1234567 -> "1,234,567"
std::string with_commas(int64_t n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// "C 64": a shape letter (dim, with a tooltip saying what it is) and its value.
void shape_cell(const char* letter, const char* meaning, const std::string& value) {
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", letter);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", meaning);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(value.c_str());
}

// What a generating decoder keeps per token: K and V of every layer, H_kv heads of D floats each.
void draw_kv_cache(const PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    text_disabled_wrapped(kv_cache_text(c, ctx.session.target().labels.size(), ctx.view.settings.korean).c_str());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("2 (K and V) × layers × H_kv × D floats of 4 bytes, kept for every token "
                                      "generated so far"));
    if (c.kv_heads() == c.n_heads) return;
    char line[160];
    std::snprintf(line, sizeof line, ctx.t("GQA keeps %d of %d heads: %.0f× smaller than full multi-head"),
                  c.kv_heads(), c.n_heads, static_cast<double>(c.n_heads) / c.kv_heads());
    text_disabled_wrapped(line);
}

// Name, architecture and the shape letters with their values.
void draw_summary(const PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    const std::string& name = ctx.session.model_name();
    ImGui::TextWrapped("%s", model_display_name(name).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name.c_str());
    const Model& model = ctx.session.model();
    const bool reads_ids = !model.src_vocab && !model.tgt_vocab;  // tokenizer_name's "no": runs on token ids
    const std::string kind = to_string(c.arch) + " · " +
                             (reads_ids ? ctx.t("no tokenizer") : tokenizer_name(model) + " " + ctx.t("tokenizer"));
    text_disabled_wrapped(kind.c_str());
    const std::string layers = c.arch == Arch::encoder_decoder
                                   ? std::to_string(c.n_encoder_layers) + " + " + std::to_string(c.n_decoder_layers)
                                   : std::to_string(c.has_encoder() ? c.n_encoder_layers : c.n_decoder_layers);
    const std::string vocab = c.arch == Arch::encoder_decoder
                                  ? std::to_string(c.src_vocab_size) + " / " + std::to_string(c.tgt_vocab_size)
                                  : std::to_string(c.output_vocab_size());
    // Three letter-value pairs a row where they fit, else two: a narrow panel wraps, never cuts "D 16" to "D 1".
    const int columns = ImGui::GetContentRegionAvail().x >= 18.0f * ctx.em ? 6 : 4;
    if (!ImGui::BeginTable("shapes", columns, ImGuiTableFlags_SizingFixedFit)) return;
    shape_cell("C", ctx.t("d_model: the width of every token vector"), std::to_string(c.d_model));
    shape_cell("H", ctx.t("attention heads"), std::to_string(c.n_heads));
    shape_cell("D",
               c.head_dim > 0 ? ctx.t("d_k: the width of one head, set apart from C / H")
                              : ctx.t("d_k = C / H: the width of one head"),
               std::to_string(c.d_head()));
    shape_cell("F", ctx.t("d_ff: the FFN's hidden width"), std::to_string(c.d_ff));
    shape_cell("L", ctx.t("layers (encoder + decoder)"), layers);
    shape_cell("V", ctx.t("vocabulary size (source / target)"), vocab);
    if (c.kv_heads() != c.n_heads)
        shape_cell("Hkv", ctx.t("K and V heads: each serves H / H_kv query heads (grouped-query attention)"),
                   std::to_string(c.kv_heads()));
    ImGui::EndTable();
    const int64_t params = parameter_count(c);
    ImGui::Text("%s: %s", ctx.t("Parameters"), with_commas(params).c_str());
    char millions[32];
    std::snprintf(millions, sizeof millions, "(%.2f M)", static_cast<double>(params) / 1e6);
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(millions).x) ImGui::NewLine();
    ImGui::TextDisabled("%s", millions);
    if (const WeightsPrecision p = weights_precision(ctx.stepper().weights(), &model.weights);
        p.bf16_tensors > 0 || p.widened_since_loaded > 0) {  // an all-F32 model's panel says nothing new
        text_disabled_wrapped(
            weights_precision_text(ctx.stepper().weights(), model.weights, ctx.view.settings.korean).c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", ctx.t("BF16 weights are multiplied as they are stored, each value widened to F32 "
                                          "exactly as it is read; norms, biases and position tables are widened on "
                                          "open. An edited or trained tensor becomes F32."));
    }
    if (const std::string window = sliding_window_text(c, ctx.view.settings.korean); !window.empty()) {
        text_disabled_wrapped(window.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", ctx.t("The decoder's look-ahead mask also blocks keys W or more positions back: "
                                          "attention and the KV cache stop growing with the text."));
    }
    if (c.has_decoder()) draw_kv_cache(ctx);
}

void switch_row(const char* label) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::TableNextColumn();
}

// A radio button with a tooltip; sets `value` to `mine` when clicked. After the row's first
// (`first`), on the same line if it fits there, else on the next: "Pre-LN" wraps, never shows as "P".
template <class T>
void radio(const char* label, const char* tip, T& value, T mine, bool first = false) {
    if (!first) {
        const ImGuiStyle& style = ImGui::GetStyle();
        const float w = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    }
    if (ImGui::RadioButton(label, value == mine)) value = mine;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
}

// Each positional scheme's label and what it does, for ctx.t.
struct PositionLabel {
    Positional scheme;
    const char* label;
    const char* tip;
};
constexpr PositionLabel kPositionLabels[] = {
    {Positional::sinusoidal, tr_noop("Sinusoidal"), tr_noop("fixed sin/cos waves, as in the paper")},
    {Positional::learned, tr_noop("Learned"), tr_noop("a trained vector per position")},
    {Positional::rotary, "RoPE", tr_noop("queries and keys rotated by their position in every attention")},
    {Positional::alibi, "ALiBi",
     tr_noop("a fixed penalty on every score, growing with the distance back to the key: one slope per head")},
    {Positional::relative_buckets, tr_noop("T5 buckets"),
     tr_noop("a learned bias on every score, read at the bucket of the key's distance from the query, shared by "
             "the layers")},
    {Positional::none, tr_noop("None"), tr_noop("no positional information at all")},
};

// The positions switch: the model's own scheme and those the core runs for its family (position_choices.h).
void position_switch(PanelContext& ctx, ModelConfig& c) {
    switch_row(ctx.t("Positions"));
    bool first = true;
    for (const Positional p : position_choices(c))
        for (const PositionLabel& l : kPositionLabels)
            if (l.scheme == p) {
                radio(ctx.t(l.label), ctx.t(l.tip), c.positional, p, first);
                first = false;
            }
}

// The norm row, named by the model's norm (LayerNorm, RMSNorm, Gemma's (1 + γ) RMSNorm), with the placements the
// core accepts for it (switch_choices.h): its two labels and what each computes.
struct NormLabels {
    NormKind kind;
    const char* row;
    const char* post;
    const char* post_tip;
    const char* pre;
    const char* pre_tip;
};
constexpr NormLabels kNormLabels[] = {
    {NormKind::layer_norm, tr_noop("LayerNorm"), tr_noop("Post-LN"), tr_noop("LayerNorm(x + Sublayer(x)), as in the paper"),
     tr_noop("Pre-LN"), tr_noop("x + Sublayer(LayerNorm(x)), as in most later models")},
    {NormKind::rms_norm, tr_noop("RMSNorm"), tr_noop("Post-norm"), tr_noop("RMSNorm(x + Sublayer(x)), the paper's placement"),
     tr_noop("Pre-norm"), tr_noop("x + Sublayer(RMSNorm(x)), as this model was trained")},
    {NormKind::rms_norm_plus_one, tr_noop("(1 + γ) RMSNorm"), tr_noop("Post-norm"),
     tr_noop("RMSNorm(x + Sublayer(x)), the paper's placement"), tr_noop("Pre-norm"),
     tr_noop("x + RMSNorm(Sublayer(RMSNorm(x))): x/√(mean(x²) + ε)·(1 + γ) before and after each sublayer, as "
             "Gemma was trained")},
};

const NormLabels& norm_labels(NormKind kind) {
    for (const NormLabels& l : kNormLabels)
        if (l.kind == kind) return l;
    return kNormLabels[0];
}

void norm_switch(PanelContext& ctx, ModelConfig& c) {
    const NormLabels& l = norm_labels(c.norm);
    switch_row(ctx.t(l.row));
    mark_tour_section(ctx, TourTaskKind::switch_norm_placement);  // the tour's switch: shown from the switches
    bool first = true;
    for (const bool pre : norm_placement_choices(c)) {
        radio(ctx.t(pre ? l.pre : l.post), ctx.t(pre ? l.pre_tip : l.post_tip), c.norm_first, pre, first);
        mark_tour_target(ctx, TourTaskKind::switch_norm_placement);
        first = false;
    }
}

// The activation row: of the FFN, or of a gated FFN's gate, with the activations the core accepts.
struct ActivationLabel {
    Activation activation;
    const char* label;
    const char* tip;
};
constexpr ActivationLabel kActivationLabels[] = {
    {Activation::relu, "ReLU", "max(0, x)"},
    {Activation::gelu, "GELU", "x·Φ(x)"},
    {Activation::gelu_tanh, "GELU-tanh", tr_noop("GELU's tanh approximation")},
    {Activation::silu, "SiLU", "x·σ(x)"},
};

void activation_switch(PanelContext& ctx, ModelConfig& c) {
    switch_row(c.gated_ffn ? ctx.t("Gate") : ctx.t("Activation"));
    bool first = true;
    for (const Activation a : activation_choices(c))
        for (const ActivationLabel& l : kActivationLabels)
            if (l.activation == a) {
                radio(l.label, ctx.t(l.tip), c.activation, a, first);
                first = false;
            }
}

// The Llama template's switches: where its RMSNorms sit, the gate's activation, RoPE or no positions (when it has no
// NoPE layers), the final norm. Its weights have no β and no position table, so LayerNorm and added positions are
// not offered.
void llama_switches(PanelContext& ctx, ModelConfig& c) {
    norm_switch(ctx, c);
    activation_switch(ctx, c);
    position_switch(ctx, c);
    switch_row(ctx.t("Final norm"));
    ImGui::Checkbox(ctx.t("after the last layer"), &c.final_norm);
}

// The switches: each change becomes one set_config command.
void draw_switches(PanelContext& ctx) {
    ModelConfig c = ctx.config();
    const ImGuiID field = ImGui::GetID("##switches");
    if (!ImGui::BeginTable("switches", 2)) return;
    // Wide enough for the norm's name: "(1 + γ) RMSNorm" is longer than the other labels.
    const float norm_width = ImGui::CalcTextSize(ctx.t(norm_labels(c.norm).row)).x + ctx.em;
    ImGui::TableSetupColumn("##label", ImGuiTableColumnFlags_WidthFixed, std::max(6.0f * ctx.em, norm_width));
    ImGui::TableSetupColumn("##value", ImGuiTableColumnFlags_WidthStretch);
    if (uses_llama_template(c.family)) {
        llama_switches(ctx, c);
        ImGui::EndTable();
        if (c != ctx.config()) note_command(field, ctx.session.set_config(c), ctx.session);
        field_error(ctx.session, field);
        return;
    }
    norm_switch(ctx, c);
    activation_switch(ctx, c);
    position_switch(ctx, c);
    // Marian's files have no final norms; its sinusoids are laid out in halves, which a switch can turn into the
    // paper's interleaving.
    const bool marian = c.family == Family::marian;
    if (marian) {
        switch_row(ctx.t("Sinusoids"));
        radio(ctx.t("Sines, then cosines"), ctx.t("frequency i at columns i and C/2 + i, as Marian was trained"),
              c.sinusoid_layout, SinusoidLayout::halves, true);
        radio(ctx.t("Interleaved"), ctx.t("frequency i at columns 2i and 2i + 1, the paper's layout"),
              c.sinusoid_layout, SinusoidLayout::interleaved);
    }
    switch_row(ctx.t("Embedding"));
    ImGui::Checkbox(ctx.t("× √d_model"), &c.scale_embedding);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t("multiply embeddings by √C before adding positions"));
    if (!marian) {
        switch_row(ctx.t("Final norm"));
        ImGui::Checkbox(ctx.t("after each stack"), &c.final_norm);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", ctx.t("a LayerNorm after the last layer, as torch.nn.Transformer has"));
    }
    ImGui::EndTable();
    if (c != ctx.config()) note_command(field, ctx.session.set_config(c), ctx.session);
    field_error(ctx.session, field);
}

}  // namespace

void draw_model_panel(PanelContext& ctx) {
    draw_summary(ctx);
    if (ImGui::CollapsingHeader(ctx.t("Switches"), ImGuiTreeNodeFlags_DefaultOpen)) draw_switches(ctx);
    if (ImGui::CollapsingHeader(ctx.t("New random model"))) draw_random_model(ctx);
    if (ImGui::CollapsingHeader(ctx.t("Open and save"))) draw_open_save(ctx);
}

}  // namespace attnlab::gui
