// The BertViz-style head view: one layer's softmax weights (H, Tq, Tk) as lines from each query token (left) to
// each key token (right), every head in its own colour with its line's opacity the weight, over the whole space
// left in the window. Colour swatches switch heads on and off; a hovered token shows its own lines alone, and a
// click keeps that token (a second click lets it go).
#include "panels/attention_parts.h"
#include "panels/token_column.h"
#include "widgets/label_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

// Heads hidden by their swatch, and the token a click keeps: the view's passing state, not saved.
struct HeadViewState {
    std::vector<bool> hidden;  // (H)
    enum class Side { none, query, key };
    Side pinned_side = Side::none;
    int pinned = -1;
};

// Bright enough on the dark and the light theme; a model with more heads reuses them in turn.
constexpr ImU32 kHeadColors[] = {
    IM_COL32(78, 161, 255, 255),  IM_COL32(255, 145, 40, 255),  IM_COL32(70, 195, 90, 255),
    IM_COL32(240, 80, 80, 255),   IM_COL32(180, 130, 240, 255), IM_COL32(225, 190, 40, 255),
    IM_COL32(250, 120, 200, 255), IM_COL32(50, 200, 200, 255),  IM_COL32(180, 125, 90, 255),
    IM_COL32(150, 150, 150, 255), IM_COL32(170, 210, 60, 255),  IM_COL32(120, 130, 255, 255),
};

ImU32 head_color(int h, float alpha = 1.0f) {
    ImVec4 c = ImGui::ColorConvertU32ToFloat4(kHeadColors[h % std::size(kHeadColors)]);
    c.w = alpha;
    return ImGui::ColorConvertFloat4ToU32(c);
}

// On the line it is called on, where they fit: a swatch per head, clicked to show or hide that head's lines (a
// switched-off head is crossed out), "All heads", and a "(?)" that says how to read the view.
void head_swatches(PanelContext& ctx, const AttentionSite& site, HeadViewState& s) {
    const int H = static_cast<int>(s.hidden.size());
    const float box = ImGui::GetTextLineHeight(), row_h = ImGui::GetFrameHeight();
    const float inset = 0.5f * (row_h - box);  // the swatch and name centred on the row of frames
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (int h = 0; h < H; ++h) {
        char name[32];
        std::snprintf(name, sizeof name, "%s %d", ctx.t("Head"), h);
        const float w = box + 0.3f * ctx.em + ImGui::CalcTextSize(name).x;
        ImGui::SameLine(0.0f, (h == 0 ? 1.5f : 0.9f) * ctx.em);
        if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::PushID(h);
        if (ImGui::InvisibleButton("swatch", ImVec2(w, row_h))) s.hidden[h] = !s.hidden[h];
        const bool hovered = ImGui::IsItemHovered();
        ImGui::PopID();
        const ImVec2 a(p.x, p.y + inset), b(p.x + box, p.y + inset + box);
        if (s.hidden[h])
            draw->AddRect(a, b, head_color(h), 0, 0, 2.0f);
        else
            draw->AddRectFilled(a, b, head_color(h));
        if (head_is_off(ctx, site, h)) draw->AddLine(a, b, IM_COL32(255, 70, 70, 255), 2.5f);
        const ImU32 text = ImGui::GetColorU32(s.hidden[h] ? ImGuiCol_TextDisabled : ImGuiCol_Text);
        draw->AddText(ImVec2(b.x + 0.3f * ctx.em, a.y), text, name);
        if (hovered) {
            ImGui::BeginTooltip();
            ImGui::TextUnformatted(
                ctx.t(s.hidden[h] ? "Click to show this head's lines." : "Click to hide this head's lines."));
            if (head_is_off(ctx, site, h)) ImGui::TextUnformatted(ctx.t("This head is switched off."));
            ImGui::EndTooltip();
        }
    }
    const char* all = ctx.t("All heads");
    const float all_w = ImGui::CalcTextSize(all).x + 2.0f * ImGui::GetStyle().FramePadding.x;
    ImGui::SameLine(0.0f, 1.2f * ctx.em);
    if (ImGui::GetContentRegionAvail().x < all_w + 3.0f * ctx.em) ImGui::NewLine();  // the button and "(?)"
    if (ImGui::Button(all)) std::fill(s.hidden.begin(), s.hidden.end(), false);
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(28.0f * ctx.em);
        ImGui::TextUnformatted(ctx.t("softmax weights of every head"));
        ImGui::TextUnformatted(
            ctx.t("Queries on the left, keys on the right; a line's opacity is its weight. Hover "
                  "a token to see its lines alone; click to keep it."));
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

// Each visible head's strongest key for query `i` (or strongest query for key `j`), as the tooltip lists them.
void token_tooltip(PanelContext& ctx, const Tensor& w, const HeadViewState& s, const AttentionTokens& tokens,
                   HeadViewState::Side side, int index) {
    const bool query = side == HeadViewState::Side::query;
    const std::vector<std::string>& own = query ? tokens.queries : tokens.keys;
    const std::vector<std::string>& other = query ? tokens.keys : tokens.queries;
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(index < static_cast<int>(own.size()) ? own[index].c_str() : "?");
    ImGui::TextDisabled(
        "%s", ctx.t(query ? "Where each head looks from this query:" : "Each head's query that looks here most:"));
    for (int h = 0; h < static_cast<int>(s.hidden.size()); ++h) {
        if (s.hidden[h]) continue;
        const auto m = w.slice(h);
        int best = 0;
        const int n = static_cast<int>(query ? w.dim(2) : w.dim(1));
        for (int k = 1; k < n; ++k)
            if ((query ? m(index, k) : m(k, index)) > (query ? m(index, best) : m(best, index))) best = k;
        const float v = query ? m(index, best) : m(best, index);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(head_color(h)), "%s %d", ctx.t("Head"), h);
        ImGui::SameLine();
        ImGui::Text("%s %s  %.3f", query ? "→" : "←", best < static_cast<int>(other.size()) ? other[best].c_str() : "?",
                    static_cast<double>(v));
    }
    ImGui::TextDisabled("%s", ctx.t("Click to keep this token; click again to let go."));
    ImGui::EndTooltip();
}

}  // namespace

void draw_head_view(PanelContext& ctx, const AttentionSite& site) {
    const TraceEntry* e = ctx.stepper().entry(weights_of(site));
    if (!e) return text_not_run_yet(ctx);
    const Tensor& w = e->value;  // (H, Tq, Tk)
    const int H = static_cast<int>(w.dim(0)), Tq = static_cast<int>(w.dim(1)), Tk = static_cast<int>(w.dim(2));
    HeadViewState& s = ctx.caches.get<HeadViewState>();
    if (static_cast<int>(s.hidden.size()) != H) s = HeadViewState{std::vector<bool>(static_cast<size_t>(H), false)};
    if (s.pinned >= (s.pinned_side == HeadViewState::Side::query ? Tq : Tk)) s.pinned_side = HeadViewState::Side::none;
    const AttentionTokens tokens = attention_tokens(ctx, site);

    head_swatches(ctx, site, s);

    // The canvas: every pixel left. Token columns as wide as their longest label (at most 9 em).
    const float label_max = 9.0f * ctx.em, pad = 0.6f * ctx.em, line_h = ImGui::GetTextLineHeight();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 size(std::max(avail.x, 20.0f * ctx.em), std::max(avail.y, std::max(Tq, Tk) * 1.1f * line_h));
    ImGui::InvisibleButton("head_view", size);
    const bool hovered_canvas = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    std::vector<std::string> left(tokens.queries), right(tokens.keys);
    const TextMeasure measure = imgui_text_measure();
    for (std::string& t : left) t = abbreviate_label(t, label_max, measure);
    for (std::string& t : right) t = abbreviate_label(t, label_max, measure);
    float left_w = 0.0f, right_w = 0.0f;
    for (const std::string& t : left) left_w = std::max(left_w, ImGui::CalcTextSize(t.c_str()).x);
    for (const std::string& t : right) right_w = std::max(right_w, ImGui::CalcTextSize(t.c_str()).x);
    // Rows spread over the height, centred, at most 8 em apart so a short sentence stays together.
    const TokenColumn queries = TokenColumn::spread(o.y, size.y, Tq, 8.0f * ctx.em);
    const TokenColumn keys = TokenColumn::spread(o.y, size.y, Tk, 8.0f * ctx.em);
    const float xl = o.x + left_w + pad, xr = o.x + size.x - right_w - pad;  // where the lines start and end

    // The hovered token: a row's band on either side.
    HeadViewState::Side hover_side = HeadViewState::Side::none;
    int hover = -1;
    if (hovered_canvas) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        if (m.x <= xl + pad) hover_side = HeadViewState::Side::query, hover = queries.at(m.y);
        if (m.x >= xr - pad) hover_side = HeadViewState::Side::key, hover = keys.at(m.y);
        if (hover < 0) hover_side = HeadViewState::Side::none;
    }
    if (clicked) {
        if (hover_side == HeadViewState::Side::none || (hover_side == s.pinned_side && hover == s.pinned))
            s.pinned_side = HeadViewState::Side::none, s.pinned = -1;  // a click elsewhere, or on the kept token
        else
            s.pinned_side = hover_side, s.pinned = hover;
    }
    // The token whose lines are shown alone: the hovered one, else the kept one.
    const HeadViewState::Side focus_side = hover_side != HeadViewState::Side::none ? hover_side : s.pinned_side;
    const int focus = hover_side != HeadViewState::Side::none ? hover : s.pinned;

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(o, ImVec2(o.x + size.x, o.y + size.y), true);
    // Each head's lines a strand's width apart, so heads that agree show as one band of their colours.
    const float thickness = std::max(1.5f, 0.16f * ctx.em);
    const float strand = std::min(1.2f * thickness, 1.2f * ctx.em / static_cast<float>(H));
    for (int h = 0; h < H; ++h) {
        if (s.hidden[h]) continue;
        const auto m = w.slice(h);
        const float dy = (static_cast<float>(h) - 0.5f * static_cast<float>(H - 1)) * strand;
        for (int i = 0; i < Tq; ++i) {
            if (focus_side == HeadViewState::Side::query && i != focus) continue;
            for (int j = 0; j < Tk; ++j) {
                if (focus_side == HeadViewState::Side::key && j != focus) continue;
                const float a = m(i, j);
                if (!(a >= 0.02f)) continue;
                draw->AddLine(ImVec2(xl, queries.y(i) + dy), ImVec2(xr, keys.y(j) + dy),
                              head_color(h, std::min(1.0f, a)), thickness);
            }
        }
    }
    // The tokens, the focused one bright on a band; the others dimmed while a token is focused.
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 band = ImGui::GetColorU32(ImGuiCol_HeaderHovered);
    const auto token = [&](const std::string& t, float x_right_or_left, float y, bool right_aligned, bool focused,
                           bool pinned) {
        const float tw = ImGui::CalcTextSize(t.c_str()).x;
        const ImVec2 p(right_aligned ? x_right_or_left - tw : x_right_or_left, y - line_h * 0.5f);
        if (focused || pinned)
            draw->AddRectFilled(ImVec2(p.x - 0.25f * ctx.em, p.y - 0.1f * ctx.em),
                                ImVec2(p.x + tw + 0.25f * ctx.em, p.y + line_h + 0.1f * ctx.em), band, 0.2f * ctx.em);
        draw->AddText(p, focus_side == HeadViewState::Side::none || focused ? text : dim, t.c_str());
    };
    for (int i = 0; i < Tq; ++i)
        token(left[i], xl - 0.4f * ctx.em, queries.y(i), true, focus_side == HeadViewState::Side::query && i == focus,
              s.pinned_side == HeadViewState::Side::query && i == s.pinned);
    for (int j = 0; j < Tk; ++j)
        token(right[j], xr + 0.4f * ctx.em, keys.y(j), false, focus_side == HeadViewState::Side::key && j == focus,
              s.pinned_side == HeadViewState::Side::key && j == s.pinned);
    draw->PopClipRect();
    if (hover_side != HeadViewState::Side::none) token_tooltip(ctx, w, s, tokens, hover_side, hover);
}

}  // namespace attnlab::gui
