// The attention view: a layer × head grid of attention maps for each family (encoder self,
// decoder masked self, cross), and a detail view of one head, stage by stage, as a matrix
// (with "Play stages"), or of one layer's heads as BertViz-style lines, with a per-head ablation switch.
#include "panels/attention_parts.h"
#include "panels/knockout_view.h"
#include "panels/step_explanation.h"
#include "panels/word_wrap.h"
#include "panels/zoom_matrix.h"
#include "widgets/radio_row.h"

#include "score_scale_text.h"

#include "forward/mechanisms/layer_variants.h"
#include "forward/step_path.h"
#include "ops/attention.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace attnlab::gui {

namespace {

struct Family {
    AttentionUse use;
    const char* title;
};

constexpr Family kFamilies[] = {
    {AttentionUse::encoder_self, tr_noop("Encoder self-attention")},
    {AttentionUse::decoder_self, tr_noop("Decoder masked self-attention")},
    {AttentionUse::cross, tr_noop("Cross-attention")},
};

struct StageInfo {
    AttentionStage id;
    const char* tab;  // English, for ctx.t
};

// The stages the detail view offers, in the order they are computed.
constexpr StageInfo kStages[] = {
    {AttentionStage::scores, "QKᵀ"},
    {AttentionStage::scaled, "÷√D"},  // shown as the model's own scale (score_scale_text.h)
    {AttentionStage::biased, tr_noop("+ bias")},  // ALiBi's or T5's position bias
    {AttentionStage::capped, tr_noop("soft cap")},  // Gemma 2's c·tanh(x/c)
    {AttentionStage::masked, tr_noop("masked")},
    {AttentionStage::weights, tr_noop("softmax")},
    {AttentionStage::q, "Q"},
    {AttentionStage::k, "K"},
    {AttentionStage::v, "V"},
    {AttentionStage::q_rot, "RoPE(Q)"},
    {AttentionStage::k_rot, "RoPE(K)"},
    {AttentionStage::context, tr_noop("context")},
};

const Family& family_of(AttentionUse use) {
    for (const Family& f : kFamilies)
        if (f.use == use) return f;
    return kFamilies[0];
}

bool family_exists(const ModelConfig& c, const Family& f) {
    switch (f.use) {
        case AttentionUse::encoder_self: return c.has_encoder();
        case AttentionUse::decoder_self: return c.has_decoder();
        case AttentionUse::cross: return c.arch == Arch::encoder_decoder;
    }
    return false;
}

int family_layers(const ModelConfig& c, const Family& f) {
    return stack_of(f.use) == Stack::encoder ? c.n_encoder_layers : c.n_decoder_layers;
}

const std::vector<std::string>& labels(const SequenceView& src, const SequenceView& tgt, Sequence sequence) {
    return sequence == Sequence::source ? src.labels : tgt.labels;
}

std::string format_text(const char* format, ...) IM_FMTARGS(1);
std::string format_text(const char* format, ...) {
    char buf[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    return buf;
}

// `pieces` joined by spaces, a piece going to the next line where it would pass the panel's right edge (an
// equation breaks before its "= ..."), and a piece wider than the panel wrapped at its own spaces.
void text_pieces_wrapped(std::initializer_list<std::string> pieces) {
    const float width = ImGui::GetContentRegionAvail().x, space = ImGui::CalcTextSize(" ").x;
    std::string text;
    float line = 0.0f;
    for (const std::string& piece : pieces) {
        const float w = ImGui::CalcTextSize(piece.c_str()).x;
        if (!text.empty() && line + space + w <= width) {
            text += ' ';
            line += space + w;
        } else {
            if (!text.empty()) text += '\n';
            line = w;
        }
        text += piece;
    }
    text_wrapped_at_spaces(text.c_str());
}

// The hovered cell explained: q_i·k_j/√D and the whole row's softmax as bars; its lines wrap to the panel.
void explain_cell(PanelContext& ctx, const AttentionSite& site, int head, int row, int col,
                  const std::vector<std::string>& row_labels, const std::vector<std::string>& col_labels) {
    const TraceEntry* scores = ctx.stepper().entry(StepId::attention_at(site, AttentionStage::scores));
    const TraceEntry* masked = ctx.stepper().entry(StepId::attention_at(site, AttentionStage::masked));
    const TraceEntry* weights = ctx.stepper().entry(weights_of(site));
    if (!scores) return;
    const float D = static_cast<float>(ctx.config().d_head());
    const float s = scores->value.slice(head)(row, col);
    const auto label = [](const std::vector<std::string>& v, int i) {
        return i < static_cast<int>(v.size()) ? v[i].c_str() : "?";
    };
    text_pieces_wrapped({format_text("%s → %s", label(row_labels, row), label(col_labels, col))});
    const float scale = ctx.config().attention_scale;  // the family's own multiplier of the scores (Gemma's), or ÷√D
    if (scale > 0.0f)
        text_pieces_wrapped({format_text("q_%d · k_%d · s", row, col), format_text("= %.4f · %.4g", s, scale),
                             format_text("= %.4f", s * scale)});
    else
        text_pieces_wrapped({format_text("q_%d · k_%d / √%d", row, col, static_cast<int>(D)),
                             format_text("= %.4f / %.3f", s, std::sqrt(D)), format_text("= %.4f", s / std::sqrt(D))});
    const TraceEntry* bias = ctx.stepper().entry(StepId::of(StepKind::position_bias, stack_of(site.use)));
    const TraceEntry* biased = ctx.stepper().entry(StepId::attention_at(site, AttentionStage::biased));
    if (bias && biased)  // ALiBi's or T5's position bias of this query and key
        text_pieces_wrapped({ctx.t("+ bias"), format_text("%+.4f", bias->value.slice(head)(row, col)),
                             format_text("= %.4f", biased->value.slice(head)(row, col))});
    if (const TraceEntry* capped = ctx.stepper().entry(StepId::attention_at(site, AttentionStage::capped)))
        text_pieces_wrapped({ctx.t("soft cap"), format_text("c·tanh(x/c) → %.4f", capped->value.slice(head)(row, col))});
    if (masked && std::isinf(masked->value.slice(head)(row, col)))
        ImGui::TextColored(ImVec4(1, .5f, .4f, 1), "%s", ctx.t("masked: −∞"));
    if (!weights) return;
    const auto w = weights->value.slice(head).row(row);
    text_pieces_wrapped({"softmax", format_text("→ %.4f", w(col))});
    ImGui::Separator();
    text_disabled_wrapped(format_text(ctx.t("softmax of row %d (%s)"), row, label(row_labels, row)).c_str());
    // A long row (a paragraph's 1,024 keys) shows its largest weights, in order, and the hovered key.
    constexpr int kMaxBars = 16, kLargest = 12;
    std::vector<int> keys(static_cast<size_t>(w.size()));
    for (int j = 0; j < w.size(); ++j) keys[static_cast<size_t>(j)] = j;
    if (w.size() > kMaxBars) {
        std::partial_sort(keys.begin(), keys.begin() + kLargest, keys.end(),
                          [&](int a, int b) { return w(a) > w(b) || (w(a) == w(b) && a < b); });
        keys.resize(kLargest);
        if (std::find(keys.begin(), keys.end(), col) == keys.end()) keys.push_back(col);
        text_disabled_wrapped(
            format_text(ctx.t("the %d largest of %d keys"), kLargest, static_cast<int>(w.size())).c_str());
    }
    const float bar_w = 9.0f * ctx.em;
    for (const int j : keys) {
        ImGui::TextUnformatted(label(col_labels, j));
        ImGui::SameLine(5.5f * ctx.em);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float h = ImGui::GetTextLineHeight() * 0.8f;
        ImDrawList* draw = ImGui::GetWindowDrawList();
        draw->AddRectFilled(p, ImVec2(p.x + bar_w, p.y + h), ImGui::GetColorU32(ImGuiCol_FrameBg));
        draw->AddRectFilled(p, ImVec2(p.x + bar_w * w(j), p.y + h),
                            j == col ? IM_COL32(255, 90, 90, 255) : ImGui::GetColorU32(ImGuiCol_PlotHistogram));
        ImGui::Dummy(ImVec2(bar_w, h));
        ImGui::SameLine();
        ImGui::Text("%.3f", w(j));
    }
}

void draw_detail(PanelContext& ctx, const Family& f) {
    const int L = family_layers(ctx.config(), f), H = ctx.config().n_heads;
    ctx.view.attention.layer = std::clamp(ctx.view.attention.layer, 0, L - 1);
    ctx.view.attention.head = std::clamp(ctx.view.attention.head, 0, H - 1);
    const AttentionSite site{f.use, ctx.view.attention.layer};
    const AttentionTokens tokens = attention_tokens(ctx, site);
    const std::vector<std::string>& query_labels = tokens.queries;
    const std::vector<std::string>& key_labels = tokens.keys;

    // One line for which attention this is and what it computes: the height is the matrix's.
    ImGui::TextUnformatted(attention_name(site).c_str());
    ImGui::SameLine();
    const bool biased = ctx.stepper().find(StepId::attention_at(site, AttentionStage::biased)).has_value();
    const std::string scores = score_formula(ctx.config());  // T5's QKᵀ, Gemma 2's 5·tanh(QKᵀ/√24 / 5)
    ImGui::TextDisabled("%s", format_text(biased ? ctx.t("softmax(%s + bias + mask)·V, per head")  // ALiBi, T5
                                                 : ctx.t("softmax(%s + mask)·V, per head"),
                                          scores.c_str())
                                  .c_str());
    ImGui::Separator();
    value_slider_int(ctx.t("Layer"), "##layer", &ctx.view.attention.layer, 0, L - 1, "%d", 4.0f * ctx.em);
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.t("Matrix"), !ctx.view.attention.line_view)) ctx.view.attention.line_view = false;
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.t("Lines"), ctx.view.attention.line_view)) ctx.view.attention.line_view = true;
    if (ctx.view.attention.line_view) return draw_head_view(ctx, site);  // every head of the layer, over the whole pane
    ImGui::SameLine();
    value_slider_int(ctx.t("Head"), "##head", &ctx.view.attention.head, 0, H - 1, "%d", 4.0f * ctx.em);
    ImGui::SameLine();
    bool ablated = head_is_off(ctx, site, ctx.view.attention.head);
    if (ImGui::Checkbox(ctx.t("Ablate head"), &ablated)) ctx.session.toggle_head(site, ctx.view.attention.head);
    const bool knockout = knockout_header(ctx, site);  // the weights' edges, a click knocking one out

    if (!knockout && draw_stage_player(ctx, site, ctx.view.attention.head)) return;  // while it plays: the stages
    for (const StageInfo& s : kStages) {  // the stages in the order they are computed
        if (knockout) break;
        if (!ctx.stepper().find(StepId::attention_at(site, s.id))) continue;  // RoPE's stages: rotary models only
        const bool active = ctx.view.attention.stage == s.id;
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        const std::string tab = s.id == AttentionStage::scaled ? score_scale_text(ctx.config()).tab : ctx.t(s.tab);
        if (ImGui::Button(tab.c_str())) ctx.view.attention.stage = s.id;
        if (active) ImGui::PopStyleColor();
        ImGui::SameLine();
    }
    if (!knockout) stage_player_button(ctx, site, ctx.view.attention.head);
    AttentionStage stage = AttentionStage::weights;  // a stage the view does not offer shows the weights
    for (const StageInfo& s : kStages)
        if (s.id == ctx.view.attention.stage && ctx.stepper().find(StepId::attention_at(site, s.id))) stage = s.id;
    const StepId stage_id = StepId::attention_at(site, stage);
    const std::optional<size_t> index = ctx.stepper().find(stage_id);
    if (!index) return text_not_run_yet(ctx);
    const StepRecord& record = ctx.stepper().step(*index).record;
    const std::string& stage_path = ctx.stepper().step(*index).path;
    const ShownEntry shown = shown_entry(ctx, stage_id);
    const TraceEntry* e = shown.entry;
    if (e) {
        csv_export_button(ctx, shown.gradient ? "grad." + stage_path : stage_path, e->value);
        ImGui::SameLine();
    }
    const StepHeading heading = step_heading(ctx, *index);
    if (shown.gradient)
        ImGui::TextDisabled("%s  (%s)", gradient_caption(to_string(stage)).c_str(), heading.title.c_str());
    else
        ImGui::TextDisabled("%s:  %s", heading.title.c_str(), heading.formula.c_str());
    if (!e) return shown.gradient ? text_gradient_not_yet(ctx) : text_not_run_yet(ctx);

    const bool is_matrix_stage = record.keys.has_value();  // (H, N, M): queries × keys
    const SequenceView src = ctx.session.source(), tgt = ctx.session.target();
    const std::vector<std::string>& row_labels = labels(src, tgt, record.rows);  // K and V: one row per key
    const float info_w = 19.0f * ctx.em;
    // The matrix zooms and pans itself: no scrollbars, the wheel is its own.
    ImGui::BeginChild("matrix", ImVec2(ImGui::GetContentRegionAvail().x - info_w, 0), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const TraceEntry* mask = ctx.stepper().entry(mask_of_site(ctx.config(), site));  // a local layer's own
    ZoomMatrixPlot plot;
    // K and V (and their rotations) have H_kv heads: the one this query head reads.
    const int head = static_cast<int>(kv_head_of(ctx.view.attention.head, ctx.config().n_heads, e->value.dim(0)));
    if (head != ctx.view.attention.head) {
        char shared[96];
        std::snprintf(shared, sizeof shared, ctx.t("K/V head %d, shared by query heads %d to %d"), head,
                      head * (ctx.config().n_heads / static_cast<int>(e->value.dim(0))),
                      (head + 1) * (ctx.config().n_heads / static_cast<int>(e->value.dim(0))) - 1);
        ImGui::TextDisabled("%s", shared);
    }
    plot.key = "detail/" + stage_path + "/" + std::to_string(head);
    plot.values = e->value.slice(head).data();
    plot.rows = static_cast<int>(e->value.dim(1));
    plot.cols = static_cast<int>(e->value.dim(2));
    plot.version = e->version;
    plot.row_labels = &row_labels;
    plot.col_labels = is_matrix_stage ? &key_labels : nullptr;
    plot.colormap = shown.colormap(stage == AttentionStage::weights ? Colormap::sequential : Colormap::diverging);
    if (stage == AttentionStage::weights && !shown.gradient) plot.fixed_range = true, plot.lo = 0.0f, plot.hi = 1.0f;
    // A gradient is drawn in every cell: a masked weight is 0 forward, yet the loss would change if it were not.
    if (is_matrix_stage && mask && !shown.gradient)
        plot.mask = mask->value.data.data(), plot.mask_version = mask->version;
    const std::string gradient_label = gradient_caption(to_string(stage));
    plot.caption = shown.gradient                     ? gradient_label.c_str()
                   : stage == AttentionStage::weights ? ctx.t("attention weight")
                                                      : nullptr;
    plot.mark_row = ctx.view.attention.cell_row, plot.mark_col = ctx.view.attention.cell_col;
    if (knockout) {  // the knocked-out edge outlined; the grid of changes in place of the weights once it is there
        plot.mark_row = ctx.view.attention.knockout.query, plot.mark_col = ctx.view.attention.knockout.key;
        knockout_grid_plot(ctx, site, plot);
    }
    MatrixZoom zoom{ctx.view.attention.zoom, ctx.view.attention.zoom_x, ctx.view.attention.zoom_y};
    const ZoomMatrixHit hit = draw_zoom_matrix(ctx, plot, zoom);
    ctx.view.attention.zoom = zoom.zoom, ctx.view.attention.zoom_x = zoom.centre_x;
    ctx.view.attention.zoom_y = zoom.centre_y;
    ImGui::EndChild();
    ImGui::SameLine();
    if (hit.clicked && hit.row >= 0) ctx.view.attention.cell_row = hit.row, ctx.view.attention.cell_col = hit.col;
    if (knockout && hit.clicked && hit.row >= 0) knockout_click(ctx, hit.row, hit.col);
    // The hovered cell, else the pinned one.
    const int row = std::clamp(hit.row >= 0 ? hit.row : ctx.view.attention.cell_row, 0, plot.rows - 1);
    const int col = std::clamp(hit.row >= 0 ? hit.col : ctx.view.attention.cell_col, 0, plot.cols - 1);
    ImGui::BeginChild("explain", ImVec2(0, 0), true);
    if (knockout) {
        knockout_pane(ctx, site, query_labels, key_labels);
        ImGui::EndChild();
        return;
    }
    if (shown.gradient) {
        ImGui::Text("%s[%d, %d, %d] = %.4g", gradient_label.c_str(), head, row, col, e->value.slice(head)(row, col));
        gradient_source_section(ctx, stage_id);
    } else if (is_matrix_stage)
        explain_cell(ctx, site, ctx.view.attention.head, row, col, query_labels, key_labels);
    else
        ImGui::Text("%s[%d, %d] = %.4f", to_string(stage), row, col, e->value.slice(head)(row, col));
    ImGui::Separator();
    ImGui::TextWrapped("%s", ctx.t("Hover a cell to explain it; click to pin it."));
    if (!shown.gradient) step_explanation_section(ctx, stage_id, {ctx.view.attention.head, row, col}, true, 0.0f);
    ImGui::EndChild();
}

}  // namespace

AttentionTokens attention_tokens(const PanelContext& ctx, const AttentionSite& site) {
    const SequenceView src = ctx.session.source(), tgt = ctx.session.target();
    const StepRecord weights =
        StepRecord::of(weights_of(site), ctx.config());  // queries are its rows, keys its columns
    return {labels(src, tgt, weights.rows), labels(src, tgt, weights.keys.value_or(weights.rows))};
}

bool head_is_off(const PanelContext& ctx, const AttentionSite& site, int head) {
    const auto& a = ctx.stepper().inputs().ablated_heads;
    auto it = a.find(site);
    return it != a.end() && it->second.count(head) > 0;
}

void focus_attention_step(ViewState& view, const StepId& id) {
    if (id.kind != StepKind::attention) return;
    view.attention.family = id.use;
    view.attention.layer = id.layer;
    view.attention.detail_open = true;  // show the stage just computed, not the grid of weights not yet there
    for (const StageInfo& s : kStages)  // concat and out: the detail keeps its stage
        if (s.id == id.stage) view.attention.stage = s.id;
}

void draw_attention_panel(PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    if (!family_exists(c, family_of(ctx.view.attention.family)))
        for (const Family& f : kFamilies)
            if (family_exists(c, f)) {
                ctx.view.attention.family = f.use;
                break;
            }
    // The families side by side, the next on a new line where it would pass the view's right edge.
    std::vector<const Family*> shown;
    std::vector<const char*> titles;
    int selected = -1;
    for (const Family& f : kFamilies)
        if (family_exists(c, f)) {
            if (f.use == ctx.view.attention.family) selected = static_cast<int>(shown.size());
            shown.push_back(&f);
            titles.push_back(ctx.t(f.title));
        }
    if (const int clicked = radio_row(titles, selected); clicked >= 0)
        ctx.view.attention.family = shown[static_cast<size_t>(clicked)]->use;
    const Family& f = family_of(ctx.view.attention.family);
    const int L = family_layers(c, f);
    if (ctx.view.attention.detail_open) {
        if (ImGui::Button(ctx.t("◀ All heads"))) ctx.view.attention.detail_open = false;
        ImGui::SameLine();
        draw_detail(ctx, f);
    } else {
        text_disabled_wrapped(ctx.t("Each square: one head's attention weights (rows: queries, columns: keys)."));
        if (ctx.config().kv_heads() != ctx.config().n_heads)
            text_disabled_wrapped(
                ctx.t("A bar under the names joins the heads that share one K and V head "
                      "(grouped-query attention)."));
        draw_attention_grid(ctx, f.use, L);
    }
}

}  // namespace attnlab::gui
