// The stepper's timeline: one small cell per forward-pass step, coloured by the step's kind.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

enum class StepKind { embedding, mask, attention, residual, ffn, output };
inline constexpr StepKind kAllStepKinds[] = {StepKind::embedding, StepKind::mask, StepKind::attention,
                                             StepKind::residual,  StepKind::ffn,  StepKind::output};

StepKind step_kind(const std::string& path);
ImU32 step_kind_color(StepKind kind, float alpha = 1.0f);
const char* step_kind_name(StepKind kind);  // English, for ctx.t
// Formulas stand out in blue, light on the dark theme and deep on the light one.
ImVec4 formula_color(const PanelContext& ctx);

// Run steps bright, the rest dim, the last run step outlined, layer blocks apart and labelled
// underneath. Hover explains a step; click or drag runs the forward pass to it.
void draw_timeline(PanelContext& ctx, float cell_height);

}  // namespace attnlab::gui
