// A small line plot drawn with ImDrawList (ImGui 1.86 has no plotting beyond PlotLines):
// axes with round-number ticks and labels, a linear or logarithmic y axis, several coloured
// series with an optional dot per point, a legend above the plot (where it covers no curve), and a
// hover line with each series' value, and optionally a marked x (the step a slider shows).
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

struct PlotSeries {
    std::string label;  // in the legend and the hover tooltip
    ImU32 color = 0;
    std::vector<ImVec2> points;  // (x, y), x ascending
    float thickness = 2.0f;      // in pixels at 1 em = 17 px; scaled with the font
    bool dots = false;           // a dot on every point (sparse series: held-out scores)
    const char* value_format = "%.3f";
};

struct PlotAxes {
    const char* x_label = "";
    const char* y_label = "";
    float x_min = 0.0f, x_max = 1.0f;
    bool x_log2 = false;  // x holds log₂ of the quantity (d_k = 2^x): ticks and the hover show 2^x
    bool log_y = false;
    bool fixed_y = false;  // y_min..y_max as given, else fitted to the data
    float y_min = 0.0f, y_max = 1.0f;
    const char* y_tick_format = "%g";
    const char* empty_note = nullptr;  // shown in the middle when no series has points
    std::optional<float> marker_x;     // a vertical line there, with a dot on each series' point nearest it
};

// Draws the plot in a (width, height) box at the cursor and advances the cursor past it.
void line_plot(const char* id, ImVec2 size, const PlotAxes& axes, const std::vector<PlotSeries>& series);

// Where each legend entry (of `entry_widths`, swatch and label) starts, from (0, 0): left to right with
// `gap` between entries, a new row of `row_height` when the next entry would pass `width`.
std::vector<ImVec2> legend_flow(const std::vector<float>& entry_widths, float width, float gap, float row_height);

// Round tick values (1, 2, 5 × 10^k steps) covering [lo, hi]; for a log axis, powers of ten
// and, when few decades are shown, their 2× and 5×.
std::vector<float> nice_ticks(float lo, float hi, bool log_axis, int target_count);

}  // namespace attnlab::gui
