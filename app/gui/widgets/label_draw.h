// Draws what label_layout.h placed, with ImGui: the measure it needs, the labels, and the full text of
// an abbreviated label on hover.
#pragma once

#include "widgets/label_layout.h"

#include <imgui.h>

#include <functional>

namespace attnlab::gui {

// ImGui::CalcTextSize with the current font (so Hangul and presentation sizes are measured as drawn).
TextMeasure imgui_text_measure();

// Text drawn at an angle (radians, counter-clockwise), anchored at its top-left corner `pos`.
void draw_rotated_text(ImDrawList* draw, ImVec2 pos, ImU32 color, const char* text, float angle);

// The placed labels, cell (0, 0) at `grid`, each in the colour `color_of(index)` gives.
void draw_axis_labels(ImDrawList* draw, ImVec2 grid, const AxisLabels& labels,
                      const std::function<ImU32(int index)>& color_of);

// The index of the placed label under the mouse, or -1; when it is abbreviated, its full text
// (`full[index]`) in a tooltip.
int axis_label_hover(ImVec2 grid, const AxisLabels& labels, const std::vector<std::string>& full);

}  // namespace attnlab::gui
