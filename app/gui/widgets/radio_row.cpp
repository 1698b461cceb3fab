// A row of radio buttons that wraps at the window's right edge.
#include "widgets/radio_row.h"

#include <imgui.h>

namespace attnlab::gui {

int radio_row(const std::vector<const char*>& labels, int selected) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    int clicked = -1;
    for (int i = 0; i < static_cast<int>(labels.size()); ++i) {
        const char* label = labels[static_cast<size_t>(i)];
        // A radio button: its circle (a frame high), the inner spacing, the label.
        const float width =
            ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
        if (i > 0 && ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right) ImGui::SameLine();
        if (ImGui::RadioButton(label, i == selected)) clicked = i;
    }
    return clicked;
}

}  // namespace attnlab::gui
