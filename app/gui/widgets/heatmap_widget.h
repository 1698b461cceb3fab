// Draws a heatmap texture with token labels on both axes, reports the hovered and clicked
// cell, and outlines the hovered cell. Cells are square, sized in pixels by the caller.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace attnlab::gui {

struct HeatmapHit {
    int row = -1, col = -1;  // hovered cell, or -1
    bool clicked = false;    // left-clicked this frame
};

struct HeatmapLayout {
    float cell = 16.0f;  // pixels per cell
    const std::vector<std::string>* row_labels = nullptr;
    const std::vector<std::string>* col_labels = nullptr;
    int highlight_row = -1;  // e.g. the row the stepper is on
    bool laser = false;  // classroom mode: the hovered cell glows and its row and column are lit, for a class to follow
};

HeatmapHit heatmap_widget(const char* id, ImTextureID texture, int rows, int cols, const HeatmapLayout& layout);

// A horizontal colour bar of `width` pixels with its end values, plus an optional caption.
void colorbar_widget(ImTextureID ramp, float lo, float hi, float width, const char* caption = nullptr);

// Text drawn at an angle (radians, counter-clockwise), anchored at its start.
void draw_rotated_text(ImDrawList* draw, ImVec2 pos, ImU32 color, const char* text, float angle);

}  // namespace attnlab::gui
