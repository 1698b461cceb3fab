// The stepper view: playback controls with the last run step (index, title, formula) in large
// text, the timeline of the forward pass's N steps, and the step explained under it: its formula
// with this input's numbers, what it computes and why, in the UI's language.
#include "output_prediction.h"
#include "panels/panel_context.h"
#include "panels/step_explanation.h"
#include "panels/stepper_timeline.h"
#include "panels/tour_target.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace attnlab::gui {

namespace {

enum class Icon { reset, back, forward, play, pause, run_all };

void draw_icon(ImDrawList* draw, Icon icon, ImVec2 c, float r, ImU32 color) {
    auto right = [&](float cx) {
        draw->AddTriangleFilled(ImVec2(cx - r * 0.8f, c.y - r), ImVec2(cx - r * 0.8f, c.y + r), ImVec2(cx + r, c.y),
                                color);
    };
    auto left = [&](float cx) {
        draw->AddTriangleFilled(ImVec2(cx + r * 0.8f, c.y - r), ImVec2(cx + r * 0.8f, c.y + r), ImVec2(cx - r, c.y),
                                color);
    };
    auto bar = [&](float cx) {
        draw->AddRectFilled(ImVec2(cx - r * 0.2f, c.y - r), ImVec2(cx + r * 0.2f, c.y + r), color);
    };
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
    if (label)
        ImGui::GetWindowDrawList()->AddText(ImVec2(a.x + h * 1.3f, a.y + ImGui::GetStyle().FramePadding.y), color,
                                            label);
    return pressed;
}

void draw_controls(PanelContext& ctx, bool strip) {
    Session& s = ctx.session;
    const size_t cursor = s.timeline_cursor(), n = ctx.stepper().size(), total = s.timeline_size();
    ImGui::BeginDisabled(cursor == 0);
    if (icon_button(ctx, "##reset", Icon::reset, nullptr, ctx.t("Reset (Home)"))) s.run_to(0);
    ImGui::SameLine();
    if (icon_button(ctx, "##back", Icon::back, nullptr, ctx.t("Step back (←)"))) s.step_back();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(cursor == total);
    if (icon_button(ctx, "##forward", Icon::forward, nullptr, ctx.t("Step forward (→)"))) s.step_forward();
    mark_tour_target(ctx, TourTaskKind::step_past);
    ImGui::EndDisabled();
    ImGui::SameLine();
    const bool playing = ctx.view.stepper.playing;
    if (icon_button(ctx, "##play", playing ? Icon::pause : Icon::play, ctx.t(playing ? "Pause" : "Play"),
                    ctx.t("Play or pause (Space)"))) {
        if (!playing && cursor == n) s.run_to(0);  // play again from the start
        ctx.view.stepper.playing = !playing;
    }
    if (!strip) {  // the classroom strip keeps its width for the step's title
        ImGui::SameLine();
        const std::string format = std::string("%.1f ") + ctx.t("steps/s");
        value_slider_float(nullptr, "##speed", &ctx.view.stepper.steps_per_second, 0.5f, 30.0f, format.c_str(),
                           6.0f * ctx.em, ImGuiSliderFlags_Logarithmic);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t("Speed"));
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(cursor == n);
    if (icon_button(ctx, "##run_all", Icon::run_all, ctx.t("Run all"), ctx.t("Run every step (End)"))) s.run_to(n);
    ImGui::EndDisabled();
    if (s.backward_steps() == 0) return;
    ImGui::SameLine();
    ImGui::BeginDisabled(cursor == total);
    if (icon_button(ctx, "##backward", Icon::run_all, ctx.t("Backward"),
                    ctx.t("Run the backward pass: the gradient of the loss at every step, last step first")))
        s.run_to(total);
    ImGui::EndDisabled();
}

// The colour key of the timeline, right-aligned on the current line if it fits.
void draw_legend(const PanelContext& ctx) {
    const float square = ImGui::GetTextLineHeight() * 0.7f, spacing = ImGui::GetStyle().ItemSpacing.x;
    float width = 0.0f;
    for (TimelineGroup g : kAllTimelineGroups)
        width += square + 0.3f * ctx.em + ImGui::CalcTextSize(ctx.t(timeline_group_name(g))).x + spacing;
    const float start = ImGui::GetWindowContentRegionMax().x - width;
    // Where SameLine would put it, without moving there: a SameLine followed by NewLine still counts the
    // spacing as content, which widened the classroom's Stepper tab by a few pixels and gave it a scrollbar.
    const float after_line = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetScrollX() + spacing;
    if (after_line > start) return;  // no room beside the step's line
    ImGui::SameLine();
    ImGui::SetCursorPosX(start);
    for (TimelineGroup g : kAllTimelineGroups) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float y = p.y + (ImGui::GetFrameHeight() - square) * 0.5f;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + square, y + square),
                                                  timeline_group_color(g));
        ImGui::SetCursorScreenPos(ImVec2(p.x + square + 0.3f * ctx.em, p.y));
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(ctx.t(timeline_group_name(g)));
        ImGui::SameLine();
    }
    ImGui::NewLine();
}

// `text` cut after its last whole word that fits in `width` pixels, with "…"; the whole text if it fits.
std::string fit_words(const std::string& text, float width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    for (size_t end = text.rfind(' '); end != std::string::npos && end > 0; end = text.rfind(' ', end - 1)) {
        const std::string cut = text.substr(0, end) + " …";
        if (ImGui::CalcTextSize(cut.c_str()).x <= width) return cut;
    }
    return "…";
}

// After the controls, large: "i / N  title  formula" of the last run step (the keys are in the
// buttons' tooltips, its path in this line's tooltip; the probs step's formula names T = 1 while the
// Output view's bars use another T). Smaller, or without the formula, when the
// line is too short for it; on a line of its own below the controls when even the title does not
// fit beside them, and in the classroom's one-line strip the title cut after a whole word.
void draw_current_step(const PanelContext& ctx, const Result<Explanation>* e, bool strip) {
    const Stepper& st = ctx.stepper();
    const size_t cursor = ctx.session.timeline_cursor();
    ImGui::SameLine(0.0f, 1.5f * ctx.em);
    const std::string index = std::to_string(cursor) + " / " + std::to_string(ctx.session.timeline_size());
    if (!e) {
        const char* note = ctx.t("Nothing has run yet: press → or ▶ to run the first step.");
        ImGui::Text("%s", index.c_str());
        ImGui::SameLine(0.0f, ctx.em);
        ImGui::TextDisabled("%s", fit_words(note, ImGui::GetContentRegionAvail().x).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", note);
        return;
    }
    const bool backward = cursor > st.size();
    const Step& step = st.step(backward ? ctx.session.backward_forward_index(cursor - st.size() - 1) : cursor - 1);
    const std::string title = *e ? (*e)->title : step.title;
    const std::string formula =
        backward ? (*e ? (*e)->formula : "")
                 : stepper_line_formula(step.record, *e ? (*e)->formula : step.formula, ctx.view.output);
    auto width = [&](bool with_formula) {
        return ImGui::CalcTextSize(index.c_str()).x + ImGui::CalcTextSize(title.c_str()).x + ctx.em * 2.0f +
               (with_formula ? ImGui::CalcTextSize(formula.c_str()).x : 0.0f);
    };
    if (!strip && width(false) > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
    const float room = ImGui::GetContentRegionAvail().x;
    ImGui::SetWindowFontScale(strip ? 1.0f : 1.25f);  // the strip is one frame tall
    if (width(true) > room) ImGui::SetWindowFontScale(1.0f);
    const bool show_formula = width(true) <= room;
    ImGui::TextUnformatted(index.c_str());
    ImGui::SameLine(0.0f, ctx.em);
    ImGui::TextUnformatted(fit_words(title, ImGui::GetContentRegionAvail().x).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", title.c_str(), step.path.c_str());
    if (show_formula) {
        ImGui::SameLine(0.0f, ctx.em);
        ImGui::TextColored(formula_color(ctx), "%s", formula.c_str());
    }
    ImGui::SetWindowFontScale(1.0f);
}

void draw_explanation_text(const PanelContext& ctx, const Explanation& e, float width) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    if (ctx.view.stepper.hidden)
        ImGui::TextDisabled("= ?");  // predict mode: the numbers would give the answer away
    else
        numbers_text(ctx, e.numbers, width);
    ImGui::TextWrapped("%s", e.what.c_str());
    text_disabled_wrapped(e.why.c_str());
    ImGui::PopTextWrapPos();
}

// Under the timeline, in the rest of the panel, in whole lines: the formula with the numbers,
// what and why. What the panel's height cuts off scrolls, and shows in full on hover.
void draw_explanation(const PanelContext& ctx, const Result<Explanation>& e) {
    if (!e) {
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.2f, 1.0f), "%s", e.error().message.c_str());
        return;
    }
    const float line = ImGui::GetTextLineHeight();
    const float height = std::max(line, std::floor(ImGui::GetContentRegionAvail().y / line) * line);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.0f));  // one line pitch
    ImGui::BeginChild("explanation", ImVec2(0, height), false);
    draw_explanation_text(ctx, *e, ImGui::GetContentRegionAvail().x);
    const bool cut_off = ImGui::GetCursorPosY() > ImGui::GetWindowHeight();
    if (cut_off && ImGui::IsWindowHovered()) {
        ImGui::BeginTooltip();
        draw_explanation_text(ctx, *e, 40.0f * ctx.em);
        ImGui::EndTooltip();
    }
    ImGui::EndChild();
    ImGui::PopStyleVar();
}

// The numbers follow the head the attention view shows and the token the residual view follows;
// elsewhere they are the last token's (the newest one).
ExplainFocus stepper_focus(const PanelContext& ctx, const StepId& id) {
    return {ctx.view.attention.head, view_for_step(id) == View::residual ? ctx.view.residual.token : -1, -1};
}

// The whole stepper, or (strip) its controls and the step's title on one line.
void draw_stepper(PanelContext& ctx, bool strip) {
    const size_t cursor = ctx.session.timeline_cursor(), n = ctx.stepper().size();
    std::optional<Result<Explanation>> e;
    if (cursor > n)
        e = backward_explanation(ctx, cursor - n - 1);
    else if (cursor > 0)
        e = step_explanation(ctx, cursor - 1, stepper_focus(ctx, ctx.stepper().step(cursor - 1).record.id));
    draw_controls(ctx, strip);
    draw_current_step(ctx, e ? &*e : nullptr, strip);
    if (strip) return;  // the view gets the screen; the step's path is this line's tooltip
    draw_legend(ctx);
    // A tight gap below the timeline: at the layout's 10.6 em, the explanation gets four lines.
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.25f * ctx.em));
    draw_timeline(ctx, 1.0f * ctx.em);
    ImGui::PopStyleVar();
    if (e) draw_explanation(ctx, *e);
}

}  // namespace

void draw_stepper_panel(PanelContext& ctx) { draw_stepper(ctx, false); }

void draw_stepper_strip(PanelContext& ctx) { draw_stepper(ctx, true); }

}  // namespace attnlab::gui
