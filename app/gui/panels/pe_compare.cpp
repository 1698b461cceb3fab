// The comparison of the positional-encoding schemes (pe_compare.h): the panels are kept between frames and rebuilt
// when the model, the sentence's length or the layer changes; each is drawn with the heatmap widget at one cell size.
#include "panels/pe_compare.h"

#include "panels/mask_flow.h"
#include "panels/word_wrap.h"
#include "param_names.h"
#include "position_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

namespace attnlab::gui {

namespace {

template <class... A>
std::string format(const char* f, A... a) {
    char buf[512];
    std::snprintf(buf, sizeof buf, f, a...);
    return buf;
}

// Derived data, not UI state: the panels and what they were built from.
struct CompareCache {
    ModelConfig config;
    std::shared_ptr<const Tensor> table;  // the learned table the panels read (held, so its address is not reused)
    int n = -1, layer = -1;
    uint64_t bias_version = 0;  // the position_bias step's (0: not run)
    PositionComparison comparison;
    std::vector<float> causal_mask;  // (N, N): 1 where j ≤ i, 0 above the diagonal (hatched)
    uint64_t version = 0;
};

const ImVec4 kOwnColor(1.0f, 0.8f, 0.3f, 1.0f);  // the model's own attention and scheme

Stack first_stack(const ModelConfig& c) { return c.has_encoder() ? Stack::encoder : Stack::decoder; }

const CompareCache& comparison_of(PanelContext& ctx, int n, int layer) {
    const ModelConfig& config = ctx.config();
    const Weights& weights = ctx.stepper().weights();
    const std::string table_name = embedding_params(config, first_stack(config)).positions;
    std::shared_ptr<const Tensor> table = table_name.empty() ? nullptr : weights.shared(table_name);
    const TraceEntry* bias = ctx.stepper().entry(StepId::of(StepKind::position_bias, first_stack(config)));
    const uint64_t bias_version = bias ? bias->version : 0;
    CompareCache& c = ctx.caches.get<CompareCache>();
    if (c.version != 0 && c.n == n && c.layer == layer && c.table == table && c.bias_version == bias_version &&
        c.config == config)
        return c;
    c.config = config, c.table = table, c.n = n, c.layer = layer, c.bias_version = bias_version;
    c.comparison = position_comparison(config, weights, n, layer, bias ? &bias->value : nullptr);
    c.causal_mask.assign(static_cast<size_t>(n) * n, 0.0f);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) c.causal_mask[static_cast<size_t>(i) * n + j] = 1.0f;
    ++c.version;
    return c;
}

// The scheme's name in the UI's language, for panel p's head h.
std::string scheme_name(const PanelContext& ctx, const SchemePanel& p, int h) {
    switch (p.scheme) {
        case PositionScheme::sinusoid: return ctx.t("Sinusoids (the paper)");
        case PositionScheme::learned: return ctx.t("Learned positions");
        case PositionScheme::rope: return "RoPE";
        case PositionScheme::nope: return "NoPE";
        case PositionScheme::t5_buckets: return ctx.t("T5 buckets");
        case PositionScheme::t5_bias: return format(ctx.t("T5 bias, head %d"), h);
        case PositionScheme::alibi:
            return format(ctx.t("ALiBi, head %d: slope %g"), h,
                          static_cast<double>(p.per_head.empty() ? 0.0f : p.per_head[static_cast<size_t>(h)]));
    }
    return "";
}

// What the scheme does, in the UI's language.
const char* scheme_effect(const PanelContext& ctx, const SchemePanel& p) {
    if (p.scheme == PositionScheme::rope) return ctx.t("turns q and k: adds nothing");
    if (p.scheme == PositionScheme::nope) return ctx.t("adds nothing: only the causal mask orders the tokens");
    return p.added_to == SchemeTarget::embeddings ? ctx.t("added to the embeddings") : ctx.t("added to the scores");
}

// The formula part of the panel's English title ("Sinusoids: PE_i·PE_j / (C/2)" -> "PE_i·PE_j / (C/2)").
std::string formula_of(const SchemePanel& p) {
    const size_t colon = p.title.find(": ");
    return colon == std::string::npos ? p.title : p.title.substr(colon + 2);
}

Colormap colormap_of(const SchemePanel& p) {
    switch (p.scheme) {
        case PositionScheme::sinusoid:
        case PositionScheme::learned:
        case PositionScheme::rope:
        case PositionScheme::t5_bias: return Colormap::diverging;
        default: return Colormap::sequential;
    }
}

struct Block {
    float width = 0.0f;  // each block's width: all the same
    float cell = 0.0f;   // each picture's cell size in pixels: all the same
    float top = 0.0f;    // the block's first line (window y), where its header starts
};

// Below the block's header, the picture starts at least four lines down, so pictures side by side line up.
void end_header(const Block& b) {
    ImGui::SetCursorPosY(std::max(ImGui::GetCursorPosY(), b.top + 4.0f * ImGui::GetTextLineHeightWithSpacing()));
}

// Blocks as wide as the view fits `per_row` of, and cells as the sentence fits them.
Block block_size(const PanelContext& ctx, int n, int n_blocks, float gap) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const int fit = std::max(1, static_cast<int>((avail + gap) / (12.0f * ctx.em + gap)));
    const int per_row = std::min(fit, (n_blocks + 1) / 2);  // two rows when they fit: larger cells
    Block b;
    b.width = std::floor((avail - gap * static_cast<float>(per_row - 1)) / static_cast<float>(per_row));
    const float labels = std::min(heatmap_row_label_space(), 5.0f * ctx.em);
    b.cell = std::floor(std::clamp((b.width - labels - ctx.em) / static_cast<float>(std::max(n, 1)), 3.0f,
                                   2.6f * ctx.em));
    return b;
}

void cell_tooltip(const PanelContext& ctx, const SequenceView& seq, int i, int j, const char* what, float value,
                  bool masked) {
    ImGui::BeginTooltip();
    ImGui::Text("%s i = %d (%s),  %s j = %d (%s)", ctx.t("query"), i, seq.labels[static_cast<size_t>(i)].c_str(),
                ctx.t("key"), j, seq.labels[static_cast<size_t>(j)].c_str());
    ImGui::Text("i − j = %d", i - j);
    if (masked)
        ImGui::TextDisabled("%s", ctx.t("masked: the key comes after the query"));
    else
        ImGui::Text("%s = %.4g", what, static_cast<double>(value));
    ImGui::EndTooltip();
}

// One block: the name, what the scheme does, its formula, then its picture.
void draw_scheme(PanelContext& ctx, const CompareCache& cc, const SchemePanel& p, bool own, int head,
                 const SequenceView& seq, const Block& b) {
    const int h = std::min(head, p.heads() - 1), n = p.positions();
    const std::string name = scheme_name(ctx, p, h);
    if (own) {
        const std::string line = name + "  " + ctx.t("(this model's)");
        ImGui::PushStyleColor(ImGuiCol_Text, kOwnColor);
        ImGui::TextWrapped("%s", line.c_str());
        ImGui::PopStyleColor();
    } else {
        ImGui::TextWrapped("%s", name.c_str());
    }
    text_disabled_wrapped(scheme_effect(ctx, p));
    const std::string formula = formula_of(p);
    const bool has_settings = p.scheme == PositionScheme::rope || p.scheme == PositionScheme::t5_buckets ||
                              p.scheme == PositionScheme::alibi;  // drawn with the scheme's usual ones when not the model's
    if (p.scheme != PositionScheme::nope)  // its effect line says it all
        text_disabled_wrapped((formula + (has_settings && !p.from_model ? ctx.t(", defaults") : "")).c_str());
    end_header(b);
    const Colormap map = colormap_of(p);
    const float reach = std::max(std::abs(p.lo), std::abs(p.hi));
    MatrixPlot plot{"poscmp/" + to_string(p.scheme) + "/" + std::to_string(h),
                    p.values.data.data() + static_cast<int64_t>(h) * n * n,
                    n,
                    n,
                    cc.version,
                    map,
                    &seq.labels,
                    &seq.labels};
    if (p.causal) plot.mask = cc.causal_mask.data(), plot.mask_version = cc.version;
    plot.cell = b.cell;
    plot.max_width = b.width;
    plot.fixed_range = true;
    plot.lo = map == Colormap::diverging ? -reach : p.lo;
    plot.hi = map == Colormap::diverging ? reach : p.hi;
    if (const HeatmapHit hit = plot_matrix(ctx, plot); hit.row >= 0)
        cell_tooltip(ctx, seq, hit.row, hit.col, formula.c_str(), p.at(h, hit.row, hit.col), p.causal && hit.col > hit.row);
}

// The open model's attention at the chosen layer and head: what it actually attends.
void draw_model_attention(PanelContext& ctx, const SequenceView& seq, const Block& b) {
    PositionCompareState& s = ctx.view.positional.compare;
    const ModelAttentionPick pick = model_attention(ctx.stepper(), s.layer, s.head);
    ImGui::PushStyleColor(ImGuiCol_Text, kOwnColor);
    ImGui::TextWrapped("%s", format(ctx.t("This model attends: layer %d, head %d"), pick.site.layer, pick.head).c_str());
    ImGui::PopStyleColor();
    text_disabled_wrapped(ctx.t("softmax weights: what the scheme and the words give together"));
    text_disabled_wrapped(pick.site.use == AttentionUse::encoder_self ? ctx.t("Encoder self-attention")
                                                                      : ctx.t("Decoder self-attention"));
    end_header(b);
    if (!pick.entry) return text_not_run_yet(ctx);
    const Tensor& w = pick.entry->value;  // (H, N, N)
    const int n = static_cast<int>(w.dim(1));
    if (n != static_cast<int>(seq.labels.size()) || w.dim(2) != n) return text_not_run_yet(ctx);
    const TraceEntry* mask = ctx.stepper().entry(StepId::mask_of(pick.site.use));
    MatrixPlot plot{"poscmp/attention/" + std::to_string(pick.site.layer) + "/" + std::to_string(pick.head),
                    w.data.data() + static_cast<int64_t>(pick.head) * n * n,
                    n,
                    n,
                    pick.entry->version,
                    Colormap::sequential,
                    &seq.labels,
                    &seq.labels};
    if (mask && mask->value.numel() == static_cast<int64_t>(n) * n)
        plot.mask = mask->value.data.data(), plot.mask_version = mask->version;
    plot.cell = b.cell;
    plot.max_width = b.width;
    plot.fixed_range = true;
    plot.lo = 0.0f, plot.hi = 1.0f;
    if (const HeatmapHit hit = plot_matrix(ctx, plot); hit.row >= 0)
        cell_tooltip(ctx, seq, hit.row, hit.col, ctx.t("weight"), w.slice(pick.head)(hit.row, hit.col), false);
}

}  // namespace

void draw_position_comparison(PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    const SequenceView seq = first_stack(c) == Stack::encoder ? ctx.session.source() : ctx.session.target();
    const int n = static_cast<int>(seq.labels.size());
    text_wrapped_at_spaces(
        ctx.t("Every scheme on this sentence, side by side: row i is the query, column j the key. Sinusoids and "
              "learned tables are added to the embeddings once; RoPE turns q and k; T5 and ALiBi add to the "
              "scores. First, the attention this model actually produces."));
    if (n == 0) return text_disabled_wrapped(ctx.t("Type a sentence in the Input view to compare the schemes."));

    PositionCompareState& s = ctx.view.positional.compare;
    const int layers = comparison_layers(c);
    s.layer = std::clamp(s.layer, 0, std::max(layers - 1, 0));
    s.head = std::clamp(s.head, 0, std::max(c.n_heads - 1, 0));
    const float slider = 6.0f * ctx.em;
    value_slider_int(ctx.t("Layer"), "##poscmp_layer", &s.layer, 0, std::max(0, layers - 1), "%d", slider);
    same_line_if_fits(value_slider_width(ctx.t("Head"), "00", slider), 1.5f * ctx.em);
    value_slider_int(ctx.t("Head"), "##poscmp_head", &s.head, 0, std::max(0, c.n_heads - 1), "%d", slider);
    ImGui::Spacing();

    const CompareCache& cc = comparison_of(ctx, n, s.layer);
    const float gap = 1.5f * ctx.em;
    Block b = block_size(ctx, n, static_cast<int>(cc.comparison.panels.size()) + 1, gap);
    FlowLayout flow(ImGui::GetContentRegionAvail().x, gap);
    flow.begin_block(b.width);
    b.top = ImGui::GetCursorPosY();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + b.width);
    draw_model_attention(ctx, seq, b);
    ImGui::PopTextWrapPos();
    flow.end_block();
    const auto& panels = cc.comparison.panels;
    for (size_t k = 0; k < panels.size(); ++k) {
        flow.begin_block(b.width);
        ImGui::PushID(static_cast<int>(k));
        b.top = ImGui::GetCursorPosY();
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + b.width);
        draw_scheme(ctx, cc, panels[k], static_cast<int>(k) == cc.comparison.own_panel, s.head, seq, b);
        ImGui::PopTextWrapPos();
        ImGui::PopID();
        flow.end_block();
    }
    flow.finish();
}

}  // namespace attnlab::gui
