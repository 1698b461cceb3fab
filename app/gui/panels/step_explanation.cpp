// Draws explanations from the StepExplainer kept among the panel caches.
#include "panels/step_explanation.h"

#include "panels/stepper_timeline.h"
#include "step_explainer.h"

#include <algorithm>

namespace attnlab::gui {

Result<Explanation> step_explanation(const PanelContext& ctx, size_t index, const ExplainFocus& focus) {
    return ctx.caches.get<StepExplainer>().explain(ctx.paths.assets, ctx.session, index, ctx.view.settings.korean,
                                                   focus);
}

Result<Explanation> backward_explanation(const PanelContext& ctx, size_t k) {
    return ctx.caches.get<StepExplainer>().explain_backward(ctx.paths.assets, ctx.session, k, ctx.view.settings.korean);
}

StepHeading step_heading(const PanelContext& ctx, size_t index) {
    if (const Result<Explanation> e = step_explanation(ctx, index); e) return {e->title, e->formula};
    const Step& step = ctx.stepper().step(index);
    return {step.title, step.formula};
}

void numbers_text(const PanelContext& ctx, const std::string& numbers, float width) {
    ImGui::PushStyleColor(ImGuiCol_Text, formula_color(ctx));
    std::string line = "=";
    size_t from = 0;
    while (from <= numbers.size()) {
        const size_t space = std::min(numbers.find(' ', from), numbers.size());
        const std::string word = numbers.substr(from, space - from);
        if (line.size() > 1 && ImGui::CalcTextSize((line + " " + word).c_str()).x > width) {
            ImGui::TextUnformatted(line.c_str());
            line = "  " + word;  // continuation lines indented under the "="
        } else {
            line += " " + word;
        }
        from = space + 1;
    }
    ImGui::TextUnformatted(line.c_str());
    ImGui::PopStyleColor();
}

void step_explanation_section(const PanelContext& ctx, const StepId& id, const ExplainFocus& focus, bool with_numbers,
                              float width_em) {
    const std::optional<size_t> index = ctx.stepper().find(id);
    if (!index) return;
    const Result<Explanation> e = step_explanation(ctx, *index, focus);
    ImGui::Separator();
    const float width = width_em > 0.0f ? width_em * ctx.em : ImGui::GetContentRegionAvail().x;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    if (!e) {
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.2f, 1.0f), "%s", e.error().message.c_str());
    } else {
        ImGui::TextUnformatted(e->title.c_str());
        ImGui::TextWrapped("%s", e->what.c_str());
        text_disabled_wrapped(e->why.c_str());
        if (with_numbers) numbers_text(ctx, e->numbers, width);
    }
    ImGui::PopTextWrapPos();
}

}  // namespace attnlab::gui
