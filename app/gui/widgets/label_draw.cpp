// The ImGui side of the label layout: measuring, drawing, hover.
#include "widgets/label_draw.h"

#include <cfloat>
#include <cmath>

namespace attnlab::gui {

TextMeasure imgui_text_measure() {
    return [](std::string_view text) {
        const ImVec2 s = ImGui::CalcTextSize(text.data(), text.data() + text.size());
        return LabelSize{s.x, s.y};
    };
}

void draw_rotated_text(ImDrawList* draw, ImVec2 pos, ImU32 color, const char* text, float angle) {
    if (angle == 0.0f) {
        draw->AddText(pos, color, text);
        return;
    }
    const int first = draw->VtxBuffer.Size;
    // Laid out flat first: no glyph is culled against the window's clip rect there (a label at a plot's right
    // edge would lose its end), only once turned, by the draw command's clip rect.
    const ImVec4 anywhere(-FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX);
    ImGui::GetFont()->RenderText(draw, ImGui::GetFontSize(), pos, color, anywhere, text, nullptr);
    const float c = std::cos(angle), s = std::sin(angle);
    for (int i = first; i < draw->VtxBuffer.Size; ++i) {
        ImVec2& p = draw->VtxBuffer[i].pos;
        const float dx = p.x - pos.x, dy = p.y - pos.y;
        p = ImVec2(pos.x + c * dx + s * dy, pos.y - s * dx + c * dy);
    }
}

void draw_axis_labels(ImDrawList* draw, ImVec2 grid, const AxisLabels& labels,
                      const std::function<ImU32(int index)>& color_of) {
    for (const PlacedLabel& l : labels.placed) {
        draw_rotated_text(draw, ImVec2(grid.x + l.pos.x, grid.y + l.pos.y), color_of(l.index), l.text.c_str(), l.angle);
    }
}

int axis_label_hover(ImVec2 grid, const AxisLabels& labels, const std::vector<std::string>& full) {
    if (!ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem)) return -1;
    const ImVec2 m = ImGui::GetIO().MousePos;
    const PlacedLabel* l = labels.at({m.x - grid.x, m.y - grid.y});
    if (!l) return -1;
    if (l->abbreviated && l->index < static_cast<int>(full.size()))
        ImGui::SetTooltip("%s", full[static_cast<size_t>(l->index)].c_str());
    return l->index;
}

}  // namespace attnlab::gui
