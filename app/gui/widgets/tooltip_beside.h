// Where a classroom's large tooltip goes (the attention grid's enlarged head): beside the pointer, on the side of
// it with more room, and inside the view, so it never covers the tour card left of the view. Pure geometry.
#pragma once

#include <imgui.h>

namespace attnlab::gui {

// ImGui's SetNextWindowPos(anchor, pivot) and SetNextWindowSizeConstraints(0, max_size): any tooltip no larger
// than max_size, placed at anchor by pivot, lies inside the view.
struct TooltipPlacement {
    ImVec2 anchor;
    ImVec2 pivot;     // x: 1 for a tooltip left of the pointer, 0 right of it; y: how far down the view it is
    ImVec2 max_size;  // the room beside the pointer (less the gap), and the view's height
};

// `view_min`, `view_size`: the view's rectangle in screen pixels; `pointer` inside it; `gap` between the pointer
// and the tooltip's near edge.
TooltipPlacement tooltip_beside_pointer(ImVec2 view_min, ImVec2 view_size, ImVec2 pointer, float gap);

// The next tooltip (ImGui's SetNextWindowPos and size constraints) beside the pointer inside the current window,
// `gap` from the pointer; returns the room it has (its width and height at most), for the tooltip's wrap width.
float place_next_tooltip_in_window(float gap);

}  // namespace attnlab::gui
