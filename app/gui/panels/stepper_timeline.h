// The stepper's timeline: one small cell per forward-pass step, coloured by the step's kind.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

// The timeline's colour groups: core's step kinds, folded into the six the legend names.
enum class TimelineGroup { embedding, mask, attention, residual, ffn, output };
inline constexpr TimelineGroup kAllTimelineGroups[] = {TimelineGroup::embedding, TimelineGroup::mask,
                                                       TimelineGroup::attention, TimelineGroup::residual,
                                                       TimelineGroup::ffn,       TimelineGroup::output};

TimelineGroup timeline_group(StepKind kind);
ImU32 timeline_group_color(TimelineGroup group, float alpha = 1.0f);
const char* timeline_group_name(TimelineGroup group);  // English, for ctx.t
// Formulas stand out in blue, light on the dark theme and deep on the light one.
ImVec4 formula_color(const PanelContext& ctx);

// Run steps bright, the rest dim, the last run step outlined, layer blocks apart and labelled
// underneath. Hover explains a step; click or drag runs the forward pass to it.
void draw_timeline(PanelContext& ctx, float cell_height);

// Classroom mode's stepper: the controls and the last run step's title on one line (the whole
// stepper is draw_stepper_panel).
void draw_stepper_strip(PanelContext& ctx);

}  // namespace attnlab::gui
