// Heatmap image + axis labels + hover/click hit testing.
#include "widgets/heatmap_widget.h"

#include "widgets/label_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

// Rows stack a hair apart; columns sit a little apart; both keep a quarter of an em off the cells.
AxisLabelRequest row_request(float cell, int keep) {
    const float em = ImGui::GetFontSize();
    return {LabelAxis::rows, cell, heatmap_row_label_space(), 0.0f, 0.05f * em, keep, ImGui::GetStyle().ItemSpacing.x};
}

AxisLabelRequest col_request(float cell, float end_room, int keep) {
    const float em = ImGui::GetFontSize();
    AxisLabelRequest r{LabelAxis::columns, cell, heatmap_col_label_space(), end_room, 0.12f * em, keep, 0.25f * em};
    r.word_gap = 0.5f * em;
    return r;
}

// A label to keep in view: the hovered one, else the highlighted one, if the layout left it out.
void keep_label(AxisLabels& axis, const std::vector<std::string>* labels, AxisLabelRequest request, int keep) {
    if (!labels || keep < 0) return;
    for (const PlacedLabel& l : axis.placed)
        if (l.index == keep) return;
    request.keep = keep;
    const LabelRect reserve = axis.reserve;
    axis = layout_axis_labels(*labels, imgui_text_measure(), request);
    axis.reserve = reserve;
}

}  // namespace

float heatmap_row_label_space() { return 8.0f * ImGui::GetFontSize(); }
float heatmap_col_label_space() { return 6.0f * ImGui::GetFontSize(); }

HeatmapGeometry heatmap_geometry(int rows, int cols, const HeatmapLayout& layout) {
    HeatmapGeometry g;
    const TextMeasure measure = imgui_text_measure();
    if (layout.row_labels) g.rows = layout_axis_labels(*layout.row_labels, measure, row_request(layout.cell, -1));
    const float row_w = std::max(0.0f, -g.rows.reserve.x0);
    const float width = layout.max_width > 0.0f ? layout.max_width : ImGui::GetContentRegionAvail().x;
    const float end_room = std::max(0.0f, width - row_w - cols * layout.cell);
    if (layout.col_labels)
        g.cols = layout_axis_labels(*layout.col_labels, measure, col_request(layout.cell, end_room, -1));
    const LabelRect cells{0.0f, 0.0f, cols * layout.cell, rows * layout.cell};
    const LabelRect all = cells.united(g.rows.reserve).united(g.cols.reserve);
    g.grid = ImVec2(-all.x0, -all.y0);
    g.size = ImVec2(all.x1 - all.x0, all.y1 - all.y0);
    return g;
}

HeatmapHit heatmap_widget(const char* id, ImTextureID texture, int rows, int cols, const HeatmapLayout& layout) {
    HeatmapHit hit;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float cell = layout.cell;
    HeatmapGeometry g = heatmap_geometry(rows, cols, layout);

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    // On whole pixels: a texture drawn a fraction of a pixel off is sampled between texels, and its one-pixel
    // grid lines fade or vanish (a 5 × 5 mask at 1024x768 lost every line between its rows).
    const ImVec2 grid(std::round(origin.x + g.grid.x), std::round(origin.y + g.grid.y));
    hit.grid = grid;
    const ImVec2 size(cols * cell, rows * cell);
    ImGui::PushID(id);
    ImGui::Dummy(g.size);
    const ImVec2 after = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(grid);
    ImGui::InvisibleButton("cells", size);
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    ImGui::SetCursorScreenPos(after);
    ImGui::PopID();

    if (texture) draw->AddImage(texture, grid, ImVec2(grid.x + size.x, grid.y + size.y));
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);

    if (hovered) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        hit.col = std::clamp(static_cast<int>((m.x - grid.x) / cell), 0, cols - 1);
        hit.row = std::clamp(static_cast<int>((m.y - grid.y) / cell), 0, rows - 1);
        hit.clicked = clicked;
    }
    // The hovered row and column keep their labels (the highlighted row too), whatever the thinning left out.
    const float end_room = g.size.x - g.grid.x - size.x;
    keep_label(g.rows, layout.row_labels, row_request(cell, -1), hit.row >= 0 ? hit.row : layout.highlight_row);
    keep_label(g.cols, layout.col_labels, col_request(cell, end_room, -1), hit.col);
    int row_label = -1, col_label = -1;  // a label under the mouse: lit, its full text on hover
    if (layout.row_labels) row_label = axis_label_hover(grid, g.rows, *layout.row_labels);
    if (layout.col_labels) col_label = axis_label_hover(grid, g.cols, *layout.col_labels);
    const int lit_row = hit.row >= 0 ? hit.row : layout.highlight_row;
    draw_axis_labels(draw, grid, g.cols, [&](int c) { return c == hit.col || c == col_label ? text : dim; });
    draw_axis_labels(draw, grid, g.rows, [&](int r) {
        if (layout.marked_rows && r < static_cast<int>(layout.marked_rows->size()) &&
            (*layout.marked_rows)[static_cast<size_t>(r)])
            return IM_COL32(255, 160, 60, 255);
        return r == lit_row || r == row_label ? text : dim;
    });
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
    if (!caption) return;
    // The caption beside the end values where it fits, else under them, wrapped at the window's right edge.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const float gap = ImGui::CalcTextSize("  ").x;
    if (ImGui::GetItemRectMax().x + gap + ImGui::CalcTextSize(caption).x <= right) {
        ImGui::SameLine(0.0f, gap);
        ImGui::TextDisabled("%s", caption);
        return;
    }
    ImGui::SetCursorScreenPos(ImVec2(p.x, ImGui::GetCursorScreenPos().y));
    ImGui::PushTextWrapPos(right - ImGui::GetWindowPos().x + ImGui::GetScrollX());  // window-local, as ImGui keeps it
    ImGui::TextDisabled("%s", caption);
    ImGui::PopTextWrapPos();
}

}  // namespace attnlab::gui
