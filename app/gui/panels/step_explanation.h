// A step's explanation (what, why, its formula with the current numbers) as the stepper and
// the views' tooltips show it, in the UI's language.
#pragma once

#include "explain/explanation.h"
#include "panels/panel_context.h"

namespace attnlab::gui {

// Step `index` explained through the app's StepExplainer (the texts from ctx.paths.assets).
Result<Explanation> step_explanation(const PanelContext& ctx, size_t index, const ExplainFocus& focus = {});

// Backward step k of the timeline explained (the chain rule through its forward step), in the UI's language.
Result<Explanation> backward_explanation(const PanelContext& ctx, size_t k);

// The step's title and formula in the UI's language; core's English ones if the texts are missing.
struct StepHeading {
    std::string title, formula;
};
StepHeading step_heading(const PanelContext& ctx, size_t index);

// "= numbers" in the formula colour, wrapped at spaces only (never inside a number) at `width` pixels.
void numbers_text(const PanelContext& ctx, const std::string& numbers, float width);

// Under a view's tooltip, or in a side box: a separator, the step's title, what it computes,
// why, and (if `with_numbers`) its formula with the focused cell's numbers, wrapped at
// `width_em` ems (0: at the window's edge). Nothing if `id` is not a step of this model.
void step_explanation_section(const PanelContext& ctx, const StepId& id, const ExplainFocus& focus = {},
                              bool with_numbers = true, float width_em = 30.0f);

}  // namespace attnlab::gui
