#include "panels/contribution_graph.h"

#include "contribution_tool.h"
#include "widgets/label_draw.h"
#include "widgets/label_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace attnlab::gui {

namespace {

// Kept between frames (PanelCaches): the tool.
struct ContributionCache {
    ContributionTool tool;
};

ImU32 kind_colour(FlowEdgeKind kind, float alpha) {
    const int a = static_cast<int>(std::clamp(alpha, 0.0f, 1.0f) * 255.0f);
    switch (kind) {
        case FlowEdgeKind::attention: return IM_COL32(70, 150, 255, a);
        case FlowEdgeKind::cross_attention: return IM_COL32(190, 110, 255, a);
        case FlowEdgeKind::ffn: return IM_COL32(255, 140, 50, a);
        case FlowEdgeKind::residual: return IM_COL32(160, 160, 160, a);
    }
    return IM_COL32(255, 255, 255, a);
}

const char* kind_name(FlowEdgeKind kind) {
    switch (kind) {
        case FlowEdgeKind::attention: return tr_noop("attention");
        case FlowEdgeKind::cross_attention: return tr_noop("cross-attention");
        case FlowEdgeKind::ffn: return tr_noop("FFN");
        case FlowEdgeKind::residual: return tr_noop("residual");
    }
    return "";
}

// A row's label: "embeddings", or the block: "L1 attn", "L1 cross", "L1 FFN".
std::string row_label(const PanelContext& ctx, const ContributionTool& tool, int block) {
    if (block < 0) return ctx.t("embeddings");
    const FlowBlock& b = tool.block(block);
    const char* what = b.kind == FlowBlockKind::ffn   ? "FFN"
                       : b.use == AttentionUse::cross ? ctx.t("cross")
                                                      : ctx.t("attn");
    return "L" + std::to_string(b.layer) + " " + what;
}

float distance_to_segment(ImVec2 p, ImVec2 a, ImVec2 b) {
    const float dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    const float t = len2 > 0.0f ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0f, 1.0f) : 0.0f;
    const float ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
    return std::sqrt(ex * ex + ey * ey);
}

void legend(const PanelContext& ctx) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (FlowEdgeKind k :
         {FlowEdgeKind::attention, FlowEdgeKind::cross_attention, FlowEdgeKind::ffn, FlowEdgeKind::residual}) {
        if (k == FlowEdgeKind::cross_attention && ctx.config().arch != Arch::encoder_decoder) continue;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float y = p.y + 0.5f * ImGui::GetTextLineHeight();
        draw->AddLine(ImVec2(p.x, y), ImVec2(p.x + 1.5f * ctx.em, y), kind_colour(k, 1.0f), 0.25f * ctx.em);
        ImGui::Dummy(ImVec2(1.7f * ctx.em, ImGui::GetTextLineHeight()));
        ImGui::SameLine();
        ImGui::TextUnformatted(ctx.t(kind_name(k)));
        ImGui::SameLine(0.0f, 1.2f * ctx.em);
    }
    ImGui::NewLine();
}

// The Attention view at the line's layer and strongest head, its query (to) and key (from) cell selected.
void open_line(PanelContext& ctx, const ContributionTool& tool, const FlowLine& line) {
    const FlowBlock& b = tool.block(line.block);
    focus_attention_step(ctx.view, StepId::attention_at({b.use, b.layer}, AttentionStage::weights));
    ctx.view.attention.head = line.top_head;
    ctx.view.attention.cell_row = line.to;
    ctx.view.attention.cell_col = line.from;
    ctx.view.bring_forward = View::attention;
}

void line_tooltip(const PanelContext& ctx, const FlowLine& line, const SequenceView& seq, const SequenceView& src) {
    const auto label = [](const SequenceView& s, int i) {
        return i >= 0 && i < static_cast<int>(s.labels.size()) ? s.labels[static_cast<size_t>(i)] : std::to_string(i);
    };
    ImGui::BeginTooltip();
    ImGui::Text("%s, L%d", ctx.t(kind_name(line.kind)), line.layer);
    const SequenceView& from = line.kind == FlowEdgeKind::cross_attention ? src : seq;
    ImGui::Text("\"%s\" → \"%s\"", label(from, line.from).c_str(), label(seq, line.to).c_str());
    ImGui::Text("%s %.3f", ctx.t("share"), line.share);
    if (line.top_head >= 0) {
        ImGui::Text(ctx.t("strongest head %d: %.3f"), line.top_head, line.top_share);
        ImGui::TextDisabled("%s", ctx.t("Click to open this head at this query and key."));
    }
    ImGui::EndTooltip();
}

}  // namespace

void draw_contribution_graph(PanelContext& ctx) {
    ContributionCache& cache = ctx.caches.get<ContributionCache>();
    ResidualViewState& state = ctx.view.residual;
    const Stack stack = flow_stack(ctx.config());
    const SequenceView seq = stack == Stack::decoder ? ctx.session.target() : ctx.session.source();
    const SequenceView src = ctx.session.source();
    const int T = static_cast<int>(seq.labels.size());
    if (T == 0) return;
    if (state.flow_token >= T) state.flow_token = -1;
    ImGui::SetNextItemWidth(std::min(16.0f * ctx.em, ImGui::GetContentRegionAvail().x * 0.5f));
    ImGui::SliderFloat(ctx.t("Threshold"), &state.flow_threshold, 0.0f, 0.3f, "%.3f");
    state.flow_threshold = std::clamp(state.flow_threshold, 0.0f, 1.0f);
    text_disabled_wrapped(
        ctx.t("The information flow routes into one token (Ferrando & Voita; the LLM Transparency "
              "Tool): each block's parts by their proximity share of the stream it writes; parts "
              "above the threshold kept and renormalised. Click a token below to pick it."));
    legend(ctx);
    cache.tool.update(ctx.stepper(), {state.flow_token, static_cast<double>(state.flow_threshold)});
    if (!cache.tool.ready()) {
        text_disabled_wrapped(cache.tool.error().c_str());
        return;
    }
    const ContributionTool& tool = cache.tool;
    const int rows = static_cast<int>(tool.shares().blocks.size()) + 1;  // the embeddings, then each block

    // Geometry: a label column on the left, one column per token, one row per node level, labels of tokens below.
    float label_w = 0.0f;
    for (int b = -1; b < rows - 1; ++b)
        label_w = std::max(label_w, ImGui::CalcTextSize(row_label(ctx, tool, b).c_str()).x);
    label_w += 0.6f * ctx.em;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = std::max(ImGui::GetContentRegionAvail().x, label_w + 4.0f * ctx.em);
    const float token_h = 1.6f * ctx.em;
    const float row_h = std::clamp((ImGui::GetContentRegionAvail().y - token_h) / static_cast<float>(rows),
                                   1.1f * ctx.em, 5.0f * ctx.em);
    const float col_w = (width - label_w) / static_cast<float>(T);
    const float height = row_h * static_cast<float>(rows) + token_h;
    ImGui::InvisibleButton("##contribution_graph", ImVec2(width, height));
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const auto x_of = [&](int t) { return origin.x + label_w + (static_cast<float>(t) + 0.5f) * col_w; };
    const auto y_of = [&](int block) { return origin.y + (static_cast<float>(rows - 1 - (block + 1)) + 0.5f) * row_h; };
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 faint = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.35f), text = ImGui::GetColorU32(ImGuiCol_Text);

    // The grid: every node faint, row labels.
    for (int b = -1; b < rows - 1; ++b) {
        const std::string label = row_label(ctx, tool, b);
        draw->AddText(ImVec2(origin.x, y_of(b) - 0.5f * ImGui::GetTextLineHeight()),
                      ImGui::GetColorU32(ImGuiCol_TextDisabled), label.c_str());
        for (int t = 0; t < T; ++t) draw->AddCircleFilled(ImVec2(x_of(t), y_of(b)), 0.12f * ctx.em, faint);
    }

    // The lines, widest last so they stay on top; the one nearest the mouse is hovered.
    std::vector<size_t> order(tool.lines().size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return tool.lines()[a].share < tool.lines()[b].share; });
    int hover_line = -1;
    float best = 0.45f * ctx.em;
    const float shift = 0.18f * col_w;  // FFN lines right of the stream's, a self-attention left of it
    for (size_t i : order) {
        const FlowLine& l = tool.lines()[i];
        ImVec2 a(x_of(l.from), y_of(l.block - 1)), b(x_of(l.to), y_of(l.block));
        if (l.kind == FlowEdgeKind::ffn) a.x += shift, b.x += shift;
        if (l.kind == FlowEdgeKind::cross_attention) a = ImVec2(b.x - 0.45f * col_w, a.y);  // from the source side
        const bool self = l.kind == FlowEdgeKind::attention && l.from == l.to;  // an arc left of the stream's line
        const ImVec2 mid(0.5f * (a.x + b.x) - (self ? 1.5f * shift : 0.0f), 0.5f * (a.y + b.y));
        const float share = static_cast<float>(l.share);
        const ImU32 colour = kind_colour(l.kind, 0.25f + 0.75f * share);
        const float thickness = (0.08f + 0.45f * share) * ctx.em;
        if (self)
            draw->AddBezierCubic(a, ImVec2(mid.x, a.y + (mid.y - a.y) * 0.5f),
                                 ImVec2(mid.x, b.y + (mid.y - b.y) * 0.5f), b, colour, thickness);
        else
            draw->AddLine(a, b, colour, thickness);
        if (l.kind == FlowEdgeKind::ffn) {
            const ImVec2 m((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
            const float r = 0.16f * ctx.em;
            draw->AddRectFilled(ImVec2(m.x - r, m.y - r), ImVec2(m.x + r, m.y + r), kind_colour(l.kind, 1.0f));
        }
        if (hovered) {
            const float d = std::min(distance_to_segment(mouse, a, mid), distance_to_segment(mouse, mid, b));
            if (d < best) best = d, hover_line = static_cast<int>(i);
        }
    }
    // The route's nodes, the token's own last node ringed.
    for (const FlowNode& n : tool.route().nodes)
        draw->AddCircleFilled(ImVec2(x_of(n.position), y_of(n.block)), 0.22f * ctx.em, text);
    const FlowNode& start = tool.route().nodes.front();
    draw->AddCircle(ImVec2(x_of(start.position), y_of(start.block)), 0.45f * ctx.em, IM_COL32(255, 210, 60, 255), 0,
                    0.12f * ctx.em);

    // The tokens along x: the chosen one highlighted; a click picks one.
    const float token_y = origin.y + row_h * static_cast<float>(rows) + 0.2f * ctx.em;
    int hover_token = -1;
    const TextMeasure measure = imgui_text_measure();
    for (int t = 0; t < T; ++t) {
        const std::string label = abbreviate_label(seq.labels[static_cast<size_t>(t)], col_w - 0.2f * ctx.em, measure);
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        const ImVec2 p(x_of(t) - 0.5f * w, token_y);
        const bool chosen = t == tool.route().token;
        const ImVec2 lo(x_of(t) - 0.5f * col_w, token_y - 0.1f * ctx.em), hi(x_of(t) + 0.5f * col_w, token_y + token_h);
        const bool over = hovered && mouse.x >= lo.x && mouse.x < hi.x && mouse.y >= lo.y && mouse.y < hi.y;
        if (chosen || over)
            draw->AddRectFilled(lo, hi,
                                chosen ? IM_COL32(255, 210, 60, 90) : ImGui::GetColorU32(ImGuiCol_HeaderHovered));
        draw->AddText(p, text, label.c_str());
        if (over) hover_token = t;
    }
    if (hover_token >= 0) {
        ImGui::SetTooltip("%s \"%s\": %s", ctx.t("Token"), seq.labels[static_cast<size_t>(hover_token)].c_str(),
                          ctx.t("click to draw its routes"));
        if (clicked) state.flow_token = hover_token;
        return;
    }
    if (hover_line < 0) return;
    const FlowLine& line = tool.lines()[static_cast<size_t>(hover_line)];
    line_tooltip(ctx, line, seq, src);
    if (clicked && line.top_head >= 0) open_line(ctx, tool, line);
}

}  // namespace attnlab::gui
