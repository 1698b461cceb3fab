// The attention view: a layer × head grid of attention maps for each family (encoder self,
// decoder masked self, cross), and a detail view of one head, stage by stage, as a matrix
// or as BertViz-style lines, with a per-head ablation switch.
#include "panels/panel_context.h"
#include "panels/step_explanation.h"

#include "forward/step_path.h"

#include <algorithm>
#include <cmath>
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
    {AttentionStage::scaled, "÷√D"},
    {AttentionStage::masked, tr_noop("masked")},
    {AttentionStage::weights, tr_noop("softmax")},
    {AttentionStage::q, "Q"},
    {AttentionStage::k, "K"},
    {AttentionStage::v, "V"},
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

StepId weights_of(const AttentionSite& site) { return StepId::attention_at(site, AttentionStage::weights); }

bool is_ablated(const PanelContext& ctx, const AttentionSite& site, int head) {
    const auto& a = ctx.stepper().inputs().ablated_heads;
    auto it = a.find(site);
    return it != a.end() && it->second.count(head) > 0;
}

const std::vector<std::string>& labels(const SequenceView& src, const SequenceView& tgt, Sequence sequence) {
    return sequence == Sequence::source ? src.labels : tgt.labels;
}

// The layer of the attention step the stepper ran last, if it is one of this family's; else -1.
int current_layer(const PanelContext& ctx, const Family& f) {
    const size_t cursor = ctx.stepper().cursor();
    if (cursor == 0 || cursor == ctx.stepper().size()) return -1;
    const StepId& id = ctx.stepper().step(cursor - 1).record.id;
    return id.kind == StepKind::attention && id.use == f.use ? id.layer : -1;
}

// Every layer × head's softmax weights (H, Tq, Tk) as tiles of one texture, row l · H + h, each drawn at the
// thumbnail's size in pixels; a layer not run yet leaves its tiles empty.
HeatmapAtlas grid_atlas(PanelContext& ctx, const Family& f, int n_layers, float thumb) {
    const int H = ctx.config().n_heads;
    const TraceEntry* mask = ctx.stepper().entry(StepId::mask_of(f.use));
    std::vector<HeatmapSource> tiles(static_cast<size_t>(n_layers) * H);
    for (int l = 0; l < n_layers; ++l) {
        const TraceEntry* e = ctx.stepper().entry(weights_of({f.use, l}));
        if (!e) continue;
        const Tensor& w = e->value;
        for (int h = 0; h < H; ++h) {
            HeatmapSource& s = tiles[static_cast<size_t>(l) * H + h];
            s.values = w.slice(h).data();
            s.rows = static_cast<int>(w.dim(1));
            s.cols = static_cast<int>(w.dim(2));
            s.version = e->version;
            if (mask) s.mask = mask->value.data.data(), s.mask_version = mask->version;
            s.lo = 0.0f, s.hi = 1.0f;
        }
    }
    const int px = std::max(1, static_cast<int>(thumb));
    return ctx.heatmaps.atlas(std::string("grid/") + to_string(f.use), tiles, H, px, px);
}

// The grid of every layer × head of one family, as thumbnails of the softmax weights.
void draw_grid(PanelContext& ctx, const Family& f, int n_layers) {
    const int H = ctx.config().n_heads;
    const float label_w = 3.2f * ctx.em, gap = 0.35f * ctx.em;
    // Every layer × head visible at once: fit both the width and the height.
    const float avail_w = ImGui::GetContentRegionAvail().x - label_w;
    const float avail_h = ImGui::GetContentRegionAvail().y - 1.6f * ctx.em;
    const float fit = std::min(avail_w / static_cast<float>(H), avail_h / static_cast<float>(n_layers)) - gap;
    // Whole pixels, placed on whole pixels: each tile of the atlas is drawn texel for pixel.
    const float thumb = std::floor(std::clamp(fit, 2.5f * ctx.em, 9.0f * ctx.em));
    ImDrawList* draw = ImGui::GetWindowDrawList();

    ImGui::Dummy(ImVec2(label_w, 0));
    // "Head 11" where it fits over its column, else the number alone (GPT-2 small's 12 heads, say).
    char widest[32];
    std::snprintf(widest, sizeof widest, "%s %d", ctx.t("Head"), H - 1);
    const bool words_fit = ImGui::CalcTextSize(widest).x <= thumb + 0.5f * gap;
    for (int h = 0; h < H; ++h) {
        ImGui::SameLine(label_w + h * (thumb + gap) + ImGui::GetStyle().WindowPadding.x);
        if (words_fit)
            ImGui::Text("%s %d", ctx.t("Head"), h);
        else
            ImGui::Text("%d", h);
    }
    const int current = current_layer(ctx, f);
    const HeatmapAtlas atlas = grid_atlas(ctx, f, n_layers, thumb);
    // Every thumbnail first (one texture), then every frame and cross (the font's): two texture binds, not 2·L·H.
    draw->ChannelsSplit(2);
    for (int l = 0; l < n_layers; ++l) {
        const AttentionSite site{f.use, l};
        const bool computed = ctx.stepper().entry(weights_of(site)) != nullptr;
        ImGui::AlignTextToFramePadding();
        if (l == current)  // the stepper is inside this layer's attention
            ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.16f, 1.0f), "%s %d ▶", ctx.t("Layer"), l);
        else
            ImGui::Text("%s %d", ctx.t("Layer"), l);
        for (int h = 0; h < H; ++h) {
            ImGui::SameLine(label_w + h * (thumb + gap) + ImGui::GetStyle().WindowPadding.x);
            ImGui::PushID(l * 1000 + h);
            const ImVec2 cursor = ImGui::GetCursorScreenPos();
            const ImVec2 p(std::floor(cursor.x), std::floor(cursor.y));
            ImGui::InvisibleButton("thumb", ImVec2(thumb, thumb));
            const bool hovered = ImGui::IsItemHovered();
            if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
                ctx.view.layer = l;
                ctx.view.head = h;
                ctx.view.detail_open = true;
            }
            if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) ctx.session.toggle_head(site, h);
            ImGui::PopID();
            const ImVec2 q(p.x + thumb, p.y + thumb);
            draw->ChannelsSetCurrent(0);
            if (computed && atlas.texture)
                draw->AddImage(atlas.texture, p, q, atlas.uv0(l * H + h), atlas.uv1(l * H + h));
            else
                draw->AddRectFilled(p, q, ImGui::GetColorU32(ImGuiCol_FrameBg));
            draw->ChannelsSetCurrent(1);
            const bool selected = l == current;
            draw->AddRect(p, q, selected ? IM_COL32(255, 200, 40, 255) : ImGui::GetColorU32(ImGuiCol_Border), 0, 0,
                          selected ? 3.0f : 1.0f);
            if (is_ablated(ctx, site, h)) {
                draw->AddLine(p, q, IM_COL32(255, 70, 70, 230), 3.0f);
                draw->AddLine(ImVec2(p.x, q.y), ImVec2(q.x, p.y), IM_COL32(255, 70, 70, 230), 3.0f);
            }
            if (hovered) {
                ImGui::BeginTooltip();
                ImGui::Text("%s %d, %s %d", ctx.t("Layer"), l, ctx.t("Head"), h);
                ImGui::TextDisabled("%s", ctx.t("Click to open; right-click to switch the head off or on."));
                step_explanation_section(ctx, weights_of(site), {h, -1, -1});
                ImGui::EndTooltip();
            }
        }
        ImGui::Dummy(ImVec2(0, gap * 0.3f));
    }
    draw->ChannelsMerge();
    if (!ctx.stepper().entry(weights_of({f.use, 0}))) text_not_run_yet(ctx);
}

// The hovered cell explained: q_i·k_j/√D and the whole row's softmax as bars.
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
    ImGui::Text("%s → %s", label(row_labels, row), label(col_labels, col));
    ImGui::Text("q_%d · k_%d / √%d = %.4f / %.3f = %.4f", row, col, static_cast<int>(D), s, std::sqrt(D),
                s / std::sqrt(D));
    if (masked && std::isinf(masked->value.slice(head)(row, col)))
        ImGui::TextColored(ImVec4(1, .5f, .4f, 1), "%s", ctx.t("masked: −∞"));
    if (!weights) return;
    const auto w = weights->value.slice(head).row(row);
    ImGui::Text("softmax → %.4f", w(col));
    ImGui::Separator();
    ImGui::TextDisabled(ctx.t("softmax of row %d (%s)"), row, label(row_labels, row));
    const float bar_w = 9.0f * ctx.em;
    for (int j = 0; j < w.size(); ++j) {
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

// BertViz-style: queries on the left, keys on the right, a line per pair weighted by attention.
void draw_lines(PanelContext& ctx, const Tensor& w, int head, const std::vector<std::string>& rows,
                const std::vector<std::string>& cols) {
    const float line = ImGui::GetTextLineHeightWithSpacing() * 1.15f;
    const float gap = 12.0f * ctx.em;
    float left_w = 0.0f;
    for (const auto& r : rows) left_w = std::max(left_w, ImGui::CalcTextSize(r.c_str()).x);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const int n = static_cast<int>(std::max(w.dim(1), w.dim(2)));
    ImGui::Dummy(ImVec2(left_w + gap + 8.0f * ctx.em, n * line));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 m = ImGui::GetIO().MousePos;
    int hovered_row = -1;
    for (int i = 0; i < w.dim(1); ++i)
        if (m.x >= o.x && m.x <= o.x + left_w && m.y >= o.y + i * line && m.y < o.y + (i + 1) * line) hovered_row = i;
    for (int i = 0; i < w.dim(1); ++i)
        for (int j = 0; j < w.dim(2); ++j) {
            const float a = w.slice(head)(i, j);
            if (a < 0.01f || (hovered_row >= 0 && hovered_row != i)) continue;
            const ImU32 color = IM_COL32(90, 160, 255, static_cast<int>(40 + 215 * a));
            draw->AddLine(ImVec2(o.x + left_w + 0.4f * ctx.em, o.y + (i + 0.5f) * line),
                          ImVec2(o.x + left_w + gap - 0.4f * ctx.em, o.y + (j + 0.5f) * line), color, 1.0f + 5.0f * a);
        }
    for (int i = 0; i < static_cast<int>(rows.size()) && i < w.dim(1); ++i) {
        const float tw = ImGui::CalcTextSize(rows[i].c_str()).x;
        draw->AddText(ImVec2(o.x + left_w - tw, o.y + i * line),
                      ImGui::GetColorU32(i == hovered_row ? ImGuiCol_PlotHistogram : ImGuiCol_Text), rows[i].c_str());
    }
    for (int j = 0; j < static_cast<int>(cols.size()) && j < w.dim(2); ++j)
        draw->AddText(ImVec2(o.x + left_w + gap, o.y + j * line), ImGui::GetColorU32(ImGuiCol_Text), cols[j].c_str());
}

void draw_detail(PanelContext& ctx, const Family& f) {
    const int L = family_layers(ctx.config(), f), H = ctx.config().n_heads;
    ctx.view.layer = std::clamp(ctx.view.layer, 0, L - 1);
    ctx.view.head = std::clamp(ctx.view.head, 0, H - 1);
    const AttentionSite site{f.use, ctx.view.layer};
    const SequenceView src = ctx.session.source(), tgt = ctx.session.target();
    // Queries are the weights' rows, keys its columns.
    const StepRecord weights = StepRecord::of(weights_of(site), ctx.config());
    const auto& query_labels = labels(src, tgt, weights.rows);
    const auto& key_labels = labels(src, tgt, weights.keys.value_or(weights.rows));

    ImGui::Separator();
    ImGui::TextUnformatted(attention_name(site).c_str());
    ImGui::SetNextItemWidth(6 * ctx.em);
    ImGui::SliderInt(ctx.t("Layer"), &ctx.view.layer, 0, L - 1);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(6 * ctx.em);
    ImGui::SliderInt(ctx.t("Head"), &ctx.view.head, 0, H - 1);
    ImGui::SameLine();
    bool ablated = is_ablated(ctx, site, ctx.view.head);
    if (ImGui::Checkbox(ctx.t("Ablate head"), &ablated)) ctx.session.toggle_head(site, ctx.view.head);
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.t("Matrix"), !ctx.view.line_view)) ctx.view.line_view = false;
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.t("Lines"), ctx.view.line_view)) ctx.view.line_view = true;

    for (const StageInfo& s : kStages) {  // the stages in the order they are computed
        const bool active = ctx.view.stage == s.id;
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(ctx.t(s.tab))) ctx.view.stage = s.id;
        if (active) ImGui::PopStyleColor();
        ImGui::SameLine();
    }
    ImGui::NewLine();
    AttentionStage stage = AttentionStage::weights;  // a stage the view does not offer shows the weights
    for (const StageInfo& s : kStages)
        if (s.id == ctx.view.stage) stage = s.id;
    const StepId stage_id = StepId::attention_at(site, stage);
    const std::optional<size_t> index = ctx.stepper().find(stage_id);
    if (!index) return text_not_run_yet(ctx);
    const StepRecord& record = ctx.stepper().step(*index).record;
    const std::string& stage_path = ctx.stepper().step(*index).path;
    const TraceEntry* e = ctx.stepper().entry(stage_id);
    if (e) {
        csv_export_button(ctx, stage_path, e->value);
        ImGui::SameLine();
    }
    const StepHeading heading = step_heading(ctx, *index);
    ImGui::TextDisabled("%s:  %s", heading.title.c_str(), heading.formula.c_str());
    if (!e) return text_not_run_yet(ctx);

    const bool is_matrix_stage = record.keys.has_value();  // (H, N, M): queries × keys
    if (ctx.view.line_view && stage == AttentionStage::weights) {
        draw_lines(ctx, e->value, ctx.view.head, query_labels, key_labels);
        return;
    }
    const std::vector<std::string>& row_labels = labels(src, tgt, record.rows);  // K and V: one row per key
    const float info_w = 19.0f * ctx.em;
    ImGui::BeginChild("matrix", ImVec2(ImGui::GetContentRegionAvail().x - info_w, 0), false,
                      ImGuiWindowFlags_HorizontalScrollbar);
    const TraceEntry* mask = ctx.stepper().entry(StepId::mask_of(f.use));
    MatrixPlot plot;
    plot.key = "detail/" + stage_path + "/" + std::to_string(ctx.view.head);
    plot.values = e->value.slice(ctx.view.head).data();
    plot.rows = static_cast<int>(e->value.dim(1));
    plot.cols = static_cast<int>(e->value.dim(2));
    plot.version = e->version;
    plot.row_labels = &row_labels;
    plot.col_labels = is_matrix_stage ? &key_labels : nullptr;
    plot.colormap = stage == AttentionStage::weights ? Colormap::sequential : Colormap::diverging;
    if (stage == AttentionStage::weights) plot.fixed_range = true, plot.lo = 0.0f, plot.hi = 1.0f;
    if (is_matrix_stage && mask) plot.mask = mask->value.data.data(), plot.mask_version = mask->version;
    plot.caption = stage == AttentionStage::weights ? ctx.t("attention weight") : nullptr;
    plot.max_cell = 3.2f * ctx.em;
    plot.fit_height = true;
    const HeatmapHit hit = plot_matrix(ctx, plot);
    ImGui::EndChild();
    ImGui::SameLine();
    if (hit.clicked) ctx.view.cell_row = hit.row, ctx.view.cell_col = hit.col;
    // The hovered cell, else the pinned one.
    const int row = std::clamp(hit.row >= 0 ? hit.row : ctx.view.cell_row, 0, plot.rows - 1);
    const int col = std::clamp(hit.row >= 0 ? hit.col : ctx.view.cell_col, 0, plot.cols - 1);
    ImGui::BeginChild("explain", ImVec2(0, 0), true);
    if (is_matrix_stage)
        explain_cell(ctx, site, ctx.view.head, row, col, query_labels, key_labels);
    else
        ImGui::Text("%s[%d, %d] = %.4f", to_string(stage), row, col, e->value.slice(ctx.view.head)(row, col));
    ImGui::Separator();
    ImGui::TextWrapped("%s", ctx.t("Hover a cell to explain it; click to pin it."));
    step_explanation_section(ctx, stage_id, {ctx.view.head, row, col}, true, 0.0f);
    ImGui::EndChild();
}

}  // namespace

void focus_attention_step(ViewState& view, const StepId& id) {
    if (id.kind != StepKind::attention) return;
    view.family = id.use;
    view.layer = id.layer;
    view.detail_open = true;            // show the stage just computed, not the grid of weights not yet there
    for (const StageInfo& s : kStages)  // concat and out: the detail keeps its stage
        if (s.id == id.stage) view.stage = s.id;
}

void draw_attention_panel(PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    if (!family_exists(c, family_of(ctx.view.family)))
        for (const Family& f : kFamilies)
            if (family_exists(c, f)) {
                ctx.view.family = f.use;
                break;
            }
    for (const Family& f : kFamilies) {
        if (!family_exists(c, f)) continue;
        if (ImGui::RadioButton(ctx.t(f.title), ctx.view.family == f.use)) ctx.view.family = f.use;
        ImGui::SameLine();
    }
    ImGui::NewLine();
    const Family& f = family_of(ctx.view.family);
    const int L = family_layers(c, f);
    if (ctx.view.detail_open) {
        if (ImGui::Button(ctx.t("◀ All heads"))) ctx.view.detail_open = false;
        ImGui::SameLine();
        ImGui::TextDisabled("%s", ctx.t("softmax(QKᵀ/√D + mask)·V, per head"));
        draw_detail(ctx, f);
    } else {
        ImGui::TextDisabled("%s", ctx.t("Each square: one head's attention weights (rows: queries, columns: keys)."));
        draw_grid(ctx, f, L);
    }
}

}  // namespace attnlab::gui
