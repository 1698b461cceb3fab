// Draws a heatmap texture with token labels on both axes, reports the hovered and clicked
// cell, and outlines the hovered cell. Cells are square, sized in pixels by the caller; the labels
// are placed by label_layout.h (horizontal, rotated, thinned or abbreviated, never on the cells).
#pragma once

#include "widgets/label_draw.h"  // draw_rotated_text, which callers of this header use too
#include "widgets/label_layout.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace attnlab::gui {

struct HeatmapHit {
    int row = -1, col = -1;  // hovered cell, or -1
    bool clicked = false;    // left-clicked this frame
    ImVec2 grid;             // where cell (0, 0) was drawn, on screen (for marks drawn over the cells)
};

struct HeatmapLayout {
    float cell = 16.0f;  // pixels per cell
    const std::vector<std::string>* row_labels = nullptr;
    const std::vector<std::string>* col_labels = nullptr;
    int highlight_row = -1;  // e.g. the row the stepper is on
    bool laser = false;  // classroom mode: the hovered cell glows and its row and column are lit, for a class to follow
    float max_width = 0.0f;  // the widget's width at most (0: the available width); rotated labels may use what the
                             // cells leave
    const std::vector<bool>* marked_rows = nullptr;  // rows whose label is orange (a word that became <unk>)
};

// Where the widget puts its parts, relative to its top-left corner, for these labels and cells.
struct HeatmapGeometry {
    ImVec2 grid;  // cell (0, 0)
    ImVec2 size;  // labels and cells: what the widget takes in the layout
    AxisLabels rows, cols;
};
HeatmapGeometry heatmap_geometry(int rows, int cols, const HeatmapLayout& layout);

// The room row labels get at most before they are abbreviated, and column labels above the cells.
float heatmap_row_label_space();
float heatmap_col_label_space();

HeatmapHit heatmap_widget(const char* id, ImTextureID texture, int rows, int cols, const HeatmapLayout& layout);

// A horizontal colour bar of `width` pixels with its end values, plus an optional caption.
void colorbar_widget(ImTextureID ramp, float lo, float hi, float width, const char* caption = nullptr);

}  // namespace attnlab::gui
