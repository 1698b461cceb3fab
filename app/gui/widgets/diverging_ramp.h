// The diverging colour ramp of signed heatmaps drawn with ImDrawList: blue (−1), white (0), red (+1), as the
// Output view's heatmaps colour a value that lowers or raises the metric; and the text colour that reads on it.
#pragma once

#include <imgui.h>

namespace attnlab::gui {

ImVec4 diverging_ramp(float t);  // t in [−1, 1], clamped
ImU32 text_on_ramp(const ImVec4& background);

}  // namespace attnlab::gui
