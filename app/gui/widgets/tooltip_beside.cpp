#include "widgets/tooltip_beside.h"

#include <algorithm>

namespace attnlab::gui {

TooltipPlacement tooltip_beside_pointer(ImVec2 view_min, ImVec2 view_size, ImVec2 pointer, float gap) {
    const float left_room = pointer.x - view_min.x - gap, right_room = view_min.x + view_size.x - pointer.x - gap;
    const bool to_left = left_room > right_room;
    const float room = std::max(to_left ? left_room : right_room, 0.0f);
    // The top as far down the tooltip as the pointer is down the view: a tooltip no taller than the view then
    // ends inside it at both ends.
    const float down = std::clamp((pointer.y - view_min.y) / std::max(view_size.y, 1.0f), 0.0f, 1.0f);
    return {ImVec2(to_left ? pointer.x - gap : pointer.x + gap, pointer.y), ImVec2(to_left ? 1.0f : 0.0f, down),
            ImVec2(room, view_size.y)};
}

float place_next_tooltip_in_window(float gap) {
    const TooltipPlacement p =
        tooltip_beside_pointer(ImGui::GetWindowPos(), ImGui::GetWindowSize(), ImGui::GetIO().MousePos, gap);
    ImGui::SetNextWindowPos(p.anchor, ImGuiCond_Always, p.pivot);
    ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), p.max_size);
    return std::min(p.max_size.x, p.max_size.y);
}

}  // namespace attnlab::gui
