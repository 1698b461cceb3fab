#include "panels/router_view.h"

#include "router_table.h"
#include "widgets/diverging_ramp.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

// A routing weight in [0, 1] as a cell colour: the background at 0, the accent at 1.
ImU32 weight_colour(float w) {
    const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_FrameBg), hi = ImGui::GetStyleColorVec4(ImGuiCol_PlotHistogram);
    const float t = std::clamp(w, 0.0f, 1.0f);
    return ImGui::GetColorU32(ImVec4(bg.x + (hi.x - bg.x) * t, bg.y + (hi.y - bg.y) * t, bg.z + (hi.z - bg.z) * t, 1.0f));
}

// The heatmap: one row per token (its label left), one column per expert (its number on top; a click switches the
// expert off or on), the chosen experts' cells filled by weight with the weight written when it fits; a click on a row
// picks the token whose experts' units are shown below.
void draw_routing_grid(PanelContext& ctx, const RouterTable& t, const std::vector<std::string>& labels,
                       const FfnSite& ffn) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    float label_w = 0.0f;
    for (const std::string& l : labels) label_w = std::max(label_w, ImGui::CalcTextSize(l.c_str()).x);
    label_w = std::min(label_w + 0.5f * ctx.em, 8.0f * ctx.em);
    const float avail = ImGui::GetContentRegionAvail().x - label_w;
    const float cell = std::clamp(avail / static_cast<float>(t.n_experts), 1.2f * ctx.em, 3.2f * ctx.em);
    const float row_h = std::clamp(1.4f * ctx.em, 0.9f * ctx.em, 1.6f * ctx.em);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 grid(origin.x + label_w, origin.y + 1.4f * ctx.em);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 off_colour = ImGui::GetColorU32(ImVec4(0.85f, 0.25f, 0.25f, 1.0f));
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool hovered_window = ImGui::IsWindowHovered();
    int hover_token = -1, hover_expert = -1;
    for (int e = 0; e < t.n_experts; ++e) {  // the experts' numbers, red when switched off
        char number[16];
        std::snprintf(number, sizeof number, "%d", e);
        const float w = ImGui::CalcTextSize(number).x;
        draw->AddText(ImVec2(grid.x + (static_cast<float>(e) + 0.5f) * cell - 0.5f * w, origin.y),
                      t.switched_off.count(e) ? off_colour : text, number);
        if (hovered_window && mouse.y >= origin.y && mouse.y < grid.y && mouse.x >= grid.x + e * cell &&
            mouse.x < grid.x + (e + 1) * cell)
            hover_expert = e;
    }
    for (int i = 0; i < t.n_tokens; ++i) {
        const float y = grid.y + static_cast<float>(i) * row_h;
        const bool picked = i == ctx.view.ffn.router_token;
        draw->AddText(ImVec2(origin.x, y + 0.5f * (row_h - ImGui::GetTextLineHeight())), picked ? text : dim,
                      labels[static_cast<size_t>(i)].c_str());
        for (int e = 0; e < t.n_experts; ++e) {
            const ImVec2 a(grid.x + e * cell + 1.0f, y + 1.0f), b(grid.x + (e + 1) * cell - 1.0f, y + row_h - 1.0f);
            const float w = t.weights(i, e);
            draw->AddRectFilled(a, b, weight_colour(w));
            const bool chosen = std::any_of(t.chosen[static_cast<size_t>(i)].begin(),
                                            t.chosen[static_cast<size_t>(i)].end(),
                                            [e](const ExpertChoice& c) { return c.expert == e; });
            if (chosen && t.switched_off.count(e)) draw->AddLine(a, b, off_colour, 2.0f);  // chosen, but off
            if (chosen && w > 0.0f) {
                char v[16];
                std::snprintf(v, sizeof v, "%.2f", w);
                const ImVec2 size = ImGui::CalcTextSize(v);
                if (size.x + 4.0f < b.x - a.x)
                    draw->AddText(ImVec2(0.5f * (a.x + b.x - size.x), 0.5f * (a.y + b.y - size.y)),
                                  text_on_ramp(ImGui::ColorConvertU32ToFloat4(weight_colour(w))), v);
            }
            if (hovered_window && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
                hover_token = i;
                hover_expert = e;
            }
        }
        if (picked)
            draw->AddRect(ImVec2(grid.x, y), ImVec2(grid.x + t.n_experts * cell, y + row_h), text, 0.0f, 0, 1.5f);
    }
    ImGui::Dummy(ImVec2(label_w + t.n_experts * cell, grid.y - origin.y + t.n_tokens * row_h));
    if (hover_expert >= 0 && hover_token < 0) {
        ImGui::SetTooltip("%s %d: %s", ctx.t("expert"), hover_expert,
                          t.switched_off.count(hover_expert) ? ctx.t("off; click to switch it back on")
                                                             : ctx.t("click to switch it off"));
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ctx.session.toggle_expert(ffn, hover_expert);
    } else if (hover_token >= 0) {
        const float w = t.weights(hover_token, hover_expert);
        ImGui::SetTooltip("“%s” → %s %d:  %s %.4f%s", labels[static_cast<size_t>(hover_token)].c_str(), ctx.t("expert"),
                          hover_expert, ctx.t("weight"), w,
                          t.switched_off.count(hover_expert) ? ctx.t(" (switched off)") : "");
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ctx.view.ffn.router_token = hover_token;
    }
}

// The load per expert: a bar of how many tokens the router sent to it, its count on top; a click switches it.
void draw_load_bars(PanelContext& ctx, const RouterTable& t, const FfnSite& ffn) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float cell = std::clamp(ImGui::GetContentRegionAvail().x / static_cast<float>(t.n_experts), 1.2f * ctx.em,
                                  3.2f * ctx.em);
    const float height = 4.0f * ctx.em;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const int most = std::max(1, *std::max_element(t.tokens_per_expert.begin(), t.tokens_per_expert.end()));
    const ImU32 bar = ImGui::GetColorU32(ImGuiCol_PlotHistogram), off = ImGui::GetColorU32(ImVec4(0.85f, 0.25f, 0.25f, 1.0f));
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const float line = ImGui::GetTextLineHeight();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (int e = 0; e < t.n_experts; ++e) {
        const int n = t.tokens_per_expert[static_cast<size_t>(e)];
        const float h = (height - line) * static_cast<float>(n) / static_cast<float>(most);
        const float x0 = origin.x + e * cell + 0.15f * cell, x1 = origin.x + (e + 1) * cell - 0.15f * cell;
        const float bottom = origin.y + height;
        draw->AddRectFilled(ImVec2(x0, bottom - h), ImVec2(x1, bottom), t.switched_off.count(e) ? off : bar);
        char count[16];
        std::snprintf(count, sizeof count, "%d", n);
        draw->AddText(ImVec2(0.5f * (x0 + x1 - ImGui::CalcTextSize(count).x), bottom - h - line), text, count);
        char number[16];
        std::snprintf(number, sizeof number, "%d", e);
        draw->AddText(ImVec2(0.5f * (x0 + x1 - ImGui::CalcTextSize(number).x), bottom + 0.2f * line), text, number);
        if (ImGui::IsWindowHovered() && mouse.x >= x0 && mouse.x < x1 && mouse.y >= origin.y && mouse.y < bottom) {
            ImGui::SetTooltip("%s %d: %d %s, %s %.3f", ctx.t("expert"), e, n, ctx.t("tokens"), ctx.t("total weight"),
                              t.weight_per_expert[static_cast<size_t>(e)]);
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ctx.session.toggle_expert(ffn, e);
        }
    }
    ImGui::Dummy(ImVec2(t.n_experts * cell, height + 1.3f * line));
}

// The picked token's chosen experts: each one's hidden units (F,) as a strip of cells, blue below 0, red above.
void draw_chosen_units(PanelContext& ctx, const RouterTable& t, const FfnSite& ffn, const std::string& label) {
    const int token = ctx.view.ffn.router_token;
    const std::vector<ExpertUnits> units = chosen_expert_units(ctx.stepper(), ffn, t, token);
    if (units.empty()) return;
    ImGui::Text("%s “%s”", ctx.t("The chosen experts' hidden units of"), label.c_str());
    float scale = 1e-6f;
    for (const ExpertUnits& u : units)
        for (float v : u.units) scale = std::max(scale, std::abs(v));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (const ExpertUnits& u : units) {
        char title[96];
        std::snprintf(title, sizeof title, "%s %d  (w = %.3f%s)", ctx.t("expert"), u.choice.expert, u.choice.weight,
                      t.switched_off.count(u.choice.expert) ? ctx.t(", switched off") : "");
        ImGui::TextUnformatted(title);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const float cell = std::clamp(ImGui::GetContentRegionAvail().x / static_cast<float>(u.units.size()),
                                      0.3f * ctx.em, 1.5f * ctx.em);
        const float h = 1.2f * ctx.em;
        for (size_t f = 0; f < u.units.size(); ++f) {
            const ImVec2 a(origin.x + f * cell, origin.y), b(origin.x + (f + 1) * cell - 1.0f, origin.y + h);
            draw->AddRectFilled(a, b, ImGui::GetColorU32(diverging_ramp(u.units[f] / scale)));
            if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(a, b))
                ImGui::SetTooltip("%s %d, %s %zu: %.4f", ctx.t("expert"), u.choice.expert, ctx.t("unit"), f,
                                  u.units[f]);
        }
        ImGui::Dummy(ImVec2(u.units.size() * cell, h));
    }
}

}  // namespace

void draw_router_view(PanelContext& ctx, Stack stack, int layer) {
    const ModelConfig& c = ctx.config();
    const FfnSite ffn{stack, layer};
    ImGui::TextUnformatted("FFN(x) = Σ_e w_e · E_e(x)");
    char shapes[128];
    std::snprintf(shapes, sizeof shapes, "%s: %d, top k = %d, %s F = %d", ctx.t("experts"), c.n_experts,
                  c.experts_per_token, ctx.t("each"), c.expert_d_ff);
    same_line_if_fits(ImGui::CalcTextSize(shapes).x, 1.5f * ctx.em);
    ImGui::TextUnformatted(shapes);
    text_disabled_wrapped(ctx.t("The router scores every expert for each token; only the top k run, weighted by "
                                "their routing weights. Click an expert's number or bar to switch it off (and "
                                "back); click a token to see its experts' hidden units."));
    const std::optional<RouterTable> table = router_table(ctx.stepper(), ffn);
    if (!table) return text_not_run_yet(ctx);
    const SequenceView seq = stack == Stack::decoder ? ctx.session.target() : ctx.session.source();
    std::vector<std::string> labels = seq.labels;
    labels.resize(static_cast<size_t>(table->n_tokens), "");
    if (ctx.view.ffn.router_token >= table->n_tokens) ctx.view.ffn.router_token = -1;
    ImGui::Separator();
    ImGui::TextUnformatted(ctx.t("Routing weights (token × expert)"));
    draw_routing_grid(ctx, *table, labels, ffn);
    ImGui::Separator();
    ImGui::TextUnformatted(ctx.t("Load per expert (tokens sent to it)"));
    draw_load_bars(ctx, *table, ffn);
    if (ctx.view.ffn.router_token < 0) ctx.view.ffn.router_token = table->n_tokens - 1;
    draw_chosen_units(ctx, *table, ffn, labels[static_cast<size_t>(ctx.view.ffn.router_token)]);
}

}  // namespace attnlab::gui
