// A classroom's enlarged head (widgets/tooltip_beside.h): wherever the pointer is in the view, any tooltip within
// the room it is given lies inside the view, so it never covers the tour card left of it (the audit's D28: ImGui's
// own placement, right of and below the pointer, covered the card and most of the grid).
#include "widgets/tooltip_beside.h"

#include <catch2/catch.hpp>

using namespace attnlab::gui;

namespace {

struct Box {
    float x0, y0, x1, y1;
};

// The box ImGui draws for a tooltip of `size` placed as `p` says (the size clamped to p.max_size, as
// SetNextWindowSizeConstraints does).
Box placed(const TooltipPlacement& p, ImVec2 size) {
    const float w = std::min(size.x, p.max_size.x), h = std::min(size.y, p.max_size.y);
    const float x0 = p.anchor.x - p.pivot.x * w, y0 = p.anchor.y - p.pivot.y * h;
    return {x0, y0, x0 + w, y0 + h};
}

}  // namespace

TEST_CASE("a classroom tooltip beside the pointer stays inside the view, clear of the pointer", "[tooltip_beside]") {
    // The attention view of a 1280x720 classroom: the tour card fills x < 340.
    const ImVec2 view_min(340, 60), view_size(940, 600);
    const float gap = 22.0f;
    for (float px = view_min.x; px <= view_min.x + view_size.x; px += 47.0f)
        for (float py = view_min.y; py <= view_min.y + view_size.y; py += 31.0f)
            for (const ImVec2 size : {ImVec2(200, 150), ImVec2(600, 500), ImVec2(2000, 2000)}) {
                const ImVec2 pointer(px, py);
                const TooltipPlacement p = tooltip_beside_pointer(view_min, view_size, pointer, gap);
                const Box b = placed(p, size);
                INFO("pointer " << px << "," << py << ", tooltip " << size.x << "x" << size.y);
                CHECK(b.x0 >= view_min.x - 0.01f);  // never over the card
                CHECK(b.x1 <= view_min.x + view_size.x + 0.01f);
                CHECK(b.y0 >= view_min.y - 0.01f);
                CHECK(b.y1 <= view_min.y + view_size.y + 0.01f);
                const bool clear = b.x1 <= px - gap + 0.01f || b.x0 >= px + gap - 0.01f;  // the pointer's cell shows
                CHECK(clear);
            }
}

TEST_CASE("the tooltip takes the side of the pointer with more room", "[tooltip_beside]") {
    const ImVec2 view_min(340, 60), view_size(940, 600);
    const TooltipPlacement near_left = tooltip_beside_pointer(view_min, view_size, ImVec2(400, 300), 20.0f);
    CHECK(near_left.pivot.x == 0.0f);  // right of the pointer
    CHECK(near_left.max_size.x == Approx(340 + 940 - 400 - 20));
    const TooltipPlacement near_right = tooltip_beside_pointer(view_min, view_size, ImVec2(1200, 300), 20.0f);
    CHECK(near_right.pivot.x == 1.0f);  // left of it
    CHECK(near_right.max_size.x == Approx(1200 - 340 - 20));
}
