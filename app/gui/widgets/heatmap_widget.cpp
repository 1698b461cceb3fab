// Heatmap image + axis labels + hover/click hit testing.
#include "widgets/heatmap_widget.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

void draw_rotated_text(ImDrawList* draw, ImVec2 pos, ImU32 color, const char* text, float angle) {
    const int first = draw->VtxBuffer.Size;
    draw->AddText(pos, color, text);
    const float c = std::cos(angle), s = std::sin(angle);
    for (int i = first; i < draw->VtxBuffer.Size; ++i) {
        ImVec2& p = draw->VtxBuffer[i].pos;
        const float dx = p.x - pos.x, dy = p.y - pos.y;
        p = ImVec2(pos.x + c * dx + s * dy, pos.y - s * dx + c * dy);
    }
}

namespace {

float widest(const std::vector<std::string>* labels) {
    float w = 0.0f;
    if (labels)
        for (const auto& l : *labels) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
    return w;
}

}  // namespace

HeatmapHit heatmap_widget(const char* id, ImTextureID texture, int rows, int cols, const HeatmapLayout& layout) {
    HeatmapHit hit;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float cell = layout.cell, line = ImGui::GetTextLineHeight();
    const float pad = ImGui::GetStyle().ItemSpacing.x;
    const float row_label_w = layout.row_labels ? widest(layout.row_labels) + pad : 0.0f;
    const float col_label_w = widest(layout.col_labels);
    const bool slanted = layout.col_labels && col_label_w > cell - 2.0f;
    const float col_label_h = !layout.col_labels ? 0.0f : slanted ? col_label_w * 0.72f + line : line + pad * 0.5f;

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 grid(origin.x + row_label_w, origin.y + col_label_h);
    const ImVec2 size(cols * cell, rows * cell);
    ImGui::PushID(id);
    ImGui::Dummy(ImVec2(row_label_w + size.x + (slanted ? col_label_w * 0.7f : 0.0f), col_label_h + size.y));
    ImGui::SetCursorScreenPos(grid);
    ImGui::InvisibleButton("cells", size);
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    ImGui::PopID();

    if (texture) draw->AddImage(texture, grid, ImVec2(grid.x + size.x, grid.y + size.y));
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);

    if (hovered) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        hit.col = std::clamp(static_cast<int>((m.x - grid.x) / cell), 0, cols - 1);
        hit.row = std::clamp(static_cast<int>((m.y - grid.y) / cell), 0, rows - 1);
        hit.clicked = clicked;
    }
    // Labels: every row and column while they fit, else every k-th.
    if (layout.row_labels) {
        const int step = std::max(1, static_cast<int>(std::ceil(line / cell)));
        for (int r = 0; r < rows && r < static_cast<int>(layout.row_labels->size()); r += step) {
            const char* l = (*layout.row_labels)[r].c_str();
            const float w = ImGui::CalcTextSize(l).x;
            draw->AddText(ImVec2(grid.x - pad - w, grid.y + r * cell + (cell - line) * 0.5f),
                          r == hit.row || r == layout.highlight_row ? text : dim, l);
        }
    }
    if (layout.col_labels) {
        const int step = std::max(1, static_cast<int>(std::ceil(line / cell)));
        for (int c = 0; c < cols && c < static_cast<int>(layout.col_labels->size()); c += step) {
            const char* l = (*layout.col_labels)[c].c_str();
            const ImU32 color = c == hit.col ? text : dim;
            if (slanted) {
                draw_rotated_text(draw, ImVec2(grid.x + c * cell + cell * 0.5f - line * 0.35f, grid.y - pad * 0.5f),
                                  color, l, 0.8f);
            } else {
                const float w = ImGui::CalcTextSize(l).x;
                draw->AddText(ImVec2(grid.x + c * cell + (cell - w) * 0.5f, grid.y - line - pad * 0.25f), color, l);
            }
        }
    }
    if (layout.highlight_row >= 0 && layout.highlight_row < rows)
        draw->AddRect(ImVec2(grid.x, grid.y + layout.highlight_row * cell),
                      ImVec2(grid.x + size.x, grid.y + (layout.highlight_row + 1) * cell),
                      ImGui::GetColorU32(ImGuiCol_PlotHistogram), 0.0f, 0, 2.0f);
    if (hit.row >= 0 && layout.laser) {
        const ImU32 band = IM_COL32(255, 40, 40, 40);
        draw->AddRectFilled(ImVec2(grid.x, grid.y + hit.row * cell),
                            ImVec2(grid.x + size.x, grid.y + (hit.row + 1) * cell), band);
        draw->AddRectFilled(ImVec2(grid.x + hit.col * cell, grid.y),
                            ImVec2(grid.x + (hit.col + 1) * cell, grid.y + size.y), band);
        const ImVec2 c(grid.x + (hit.col + 0.5f) * cell, grid.y + (hit.row + 0.5f) * cell);
        draw->AddCircle(c, cell * 0.9f, IM_COL32(255, 40, 40, 120), 0, 6.0f);
    }
    if (hit.row >= 0) {
        const ImVec2 a(grid.x + hit.col * cell, grid.y + hit.row * cell);
        draw->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + cell + 1, a.y + cell + 1), IM_COL32(255, 64, 64, 255),
                      0.0f, 0, 2.5f);
    }
    return hit;
}

void colorbar_widget(ImTextureID ramp, float lo, float hi, float width, const char* caption) {
    const float h = ImGui::GetTextLineHeight() * 0.8f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (ramp) draw->AddImage(ramp, p, ImVec2(p.x + width, p.y + h));
    draw->AddRect(p, ImVec2(p.x + width, p.y + h), ImGui::GetColorU32(ImGuiCol_Border));
    ImGui::Dummy(ImVec2(width, h));
    char lo_text[32], hi_text[32];
    std::snprintf(lo_text, sizeof lo_text, "%.3g", lo);
    std::snprintf(hi_text, sizeof hi_text, "%.3g", hi);
    const ImVec2 below = ImGui::GetCursorScreenPos();
    ImGui::TextUnformatted(lo_text);
    ImGui::SameLine();
    // Right-align the upper value under the bar's end, in screen space (correct inside groups too).
    ImGui::SetCursorScreenPos(
        ImVec2(std::max(ImGui::GetCursorScreenPos().x, p.x + width - ImGui::CalcTextSize(hi_text).x), below.y));
    ImGui::TextUnformatted(hi_text);
    if (caption) {
        ImGui::SameLine();
        ImGui::TextDisabled("  %s", caption);
    }
}

}  // namespace attnlab::gui
