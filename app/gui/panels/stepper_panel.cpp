// The stepper view: playback controls, the timeline of the forward pass's N steps, and the
// last run step (index, title, formula, path) in large text.
#include "panels/panel_context.h"
#include "panels/stepper_timeline.h"

#include <string>

namespace attnlab::gui {

namespace {

enum class Icon { reset, back, forward, play, pause, run_all };

void draw_icon(ImDrawList* draw, Icon icon, ImVec2 c, float r, ImU32 color) {
    auto right = [&](float cx) { draw->AddTriangleFilled(ImVec2(cx - r * 0.8f, c.y - r), ImVec2(cx - r * 0.8f, c.y + r), ImVec2(cx + r, c.y), color); };
    auto left = [&](float cx) { draw->AddTriangleFilled(ImVec2(cx + r * 0.8f, c.y - r), ImVec2(cx + r * 0.8f, c.y + r), ImVec2(cx - r, c.y), color); };
    auto bar = [&](float cx) { draw->AddRectFilled(ImVec2(cx - r * 0.2f, c.y - r), ImVec2(cx + r * 0.2f, c.y + r), color); };
    switch (icon) {
        case Icon::reset: bar(c.x - r * 1.1f), left(c.x + r * 0.3f); break;
        case Icon::back: left(c.x); break;
        case Icon::forward:
        case Icon::play: right(c.x); break;
        case Icon::pause: bar(c.x - r * 0.45f), bar(c.x + r * 0.45f); break;
        case Icon::run_all: right(c.x - r * 0.3f), bar(c.x + r * 1.1f); break;
    }
}

// A button with a drawn icon (fonts lack ⏮ and ⏭), an optional label after it, and a tooltip.
bool icon_button(const PanelContext& ctx, const char* id, Icon icon, const char* label, const char* tip) {
    const float h = ImGui::GetFrameHeight();
    const float label_w = label ? ImGui::CalcTextSize(label).x + 0.4f * ctx.em : 0.0f;
    const bool pressed = ImGui::Button(id, ImVec2(h * 1.5f + label_w, h));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
    const ImVec2 a = ImGui::GetItemRectMin();
    const ImU32 color = ImGui::GetColorU32(ImGuiCol_Text);
    draw_icon(ImGui::GetWindowDrawList(), icon, ImVec2(a.x + h * 0.75f, a.y + h * 0.5f), h * 0.24f, color);
    if (label) ImGui::GetWindowDrawList()->AddText(ImVec2(a.x + h * 1.3f, a.y + ImGui::GetStyle().FramePadding.y), color, label);
    return pressed;
}

void draw_controls(PanelContext& ctx) {
    Session& s = ctx.session;
    const size_t cursor = ctx.stepper().cursor(), n = ctx.stepper().size();
    ImGui::BeginDisabled(cursor == 0);
    if (icon_button(ctx, "##reset", Icon::reset, nullptr, ctx.t("Reset (Home)"))) s.run_to(0);
    ImGui::SameLine();
    if (icon_button(ctx, "##back", Icon::back, nullptr, ctx.t("Step back (←)"))) s.step_back();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(cursor == n);
    if (icon_button(ctx, "##forward", Icon::forward, nullptr, ctx.t("Step forward (→)"))) s.step_forward();
    ImGui::EndDisabled();
    ImGui::SameLine();
    const bool playing = ctx.view.playing;
    if (icon_button(ctx, "##play", playing ? Icon::pause : Icon::play, ctx.t(playing ? "Pause" : "Play"),
                    ctx.t("Play or pause (Space)"))) {
        if (!playing && cursor == n) s.run_to(0);  // play again from the start
        ctx.view.playing = !playing;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(9.0f * ctx.em);
    const std::string format = std::string("%.1f ") + ctx.t("steps/s");
    ImGui::SliderFloat("##speed", &ctx.view.steps_per_second, 0.5f, 30.0f, format.c_str(), ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t("Speed"));
    ImGui::SameLine();
    ImGui::BeginDisabled(cursor == n);
    if (icon_button(ctx, "##run_all", Icon::run_all, ctx.t("Run all"), ctx.t("Run every step (End)"))) s.run_to(n);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", ctx.t("← → step · Space play/pause · Home End first/last"));
}

// The colour key of the timeline, right-aligned on the current line if it fits.
void draw_legend(const PanelContext& ctx) {
    const float square = ImGui::GetTextLineHeight() * 0.7f, spacing = ImGui::GetStyle().ItemSpacing.x;
    float width = 0.0f;
    for (StepKind k : kAllStepKinds) width += square + 0.3f * ctx.em + ImGui::CalcTextSize(ctx.t(step_kind_name(k))).x + spacing;
    const float start = ImGui::GetWindowContentRegionMax().x - width;
    ImGui::SameLine();
    if (ImGui::GetCursorPosX() > start) {
        ImGui::NewLine();
        return;
    }
    ImGui::SetCursorPosX(start);
    for (StepKind k : kAllStepKinds) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float y = p.y + (ImGui::GetFrameHeight() - square) * 0.5f;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + square, y + square), step_kind_color(k));
        ImGui::SetCursorScreenPos(ImVec2(p.x + square + 0.3f * ctx.em, p.y));
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(ctx.t(step_kind_name(k)));
        ImGui::SameLine();
    }
    ImGui::NewLine();
}

// The last run step, large: "i / N  title  formula", then its path.
void draw_current_step(const PanelContext& ctx) {
    const Stepper& st = ctx.stepper();
    const size_t cursor = st.cursor(), n = st.size();
    ImGui::SetWindowFontScale(1.3f);
    ImGui::Text("%d / %d", static_cast<int>(cursor), static_cast<int>(n));
    ImGui::SameLine(0.0f, ctx.em);
    if (cursor == 0) {
        ImGui::TextDisabled("%s", ctx.t("Nothing has run yet: press → or ▶ to run the first step."));
        ImGui::SetWindowFontScale(1.0f);
        return;
    }
    const Step& step = st.step(cursor - 1);
    ImGui::TextUnformatted(step.title.c_str());
    ImGui::SameLine(0.0f, ctx.em);
    ImGui::TextColored(formula_color(ctx), "%s", step.formula.c_str());
    ImGui::SetWindowFontScale(1.0f);
    ImGui::SameLine(0.0f, ctx.em);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", step.path.c_str());
}

}  // namespace

void draw_stepper_panel(PanelContext& ctx) {
    draw_controls(ctx);
    draw_legend(ctx);
    draw_timeline(ctx, 1.4f * ctx.em);
    draw_current_step(ctx);
}

}  // namespace attnlab::gui
