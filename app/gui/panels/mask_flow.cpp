// Left-to-right block layout with wrapping, through ImGui's indent, and its height.
#include "panels/mask_flow.h"

#include <algorithm>

namespace attnlab::gui {

FlowLayout::FlowLayout(float avail, float gap)
    : origin_(ImGui::GetCursorScreenPos()), row_top_(origin_), avail_(avail), gap_(gap), bottom_(origin_.y) {}

void FlowLayout::begin_block(float width) {
    if (!empty_row_ && x_ + gap_ + width > avail_) {
        row_top_ = ImVec2(origin_.x, bottom_);
        x_ = 0.0f;
        empty_row_ = true;
    }
    if (!empty_row_) x_ += gap_;
    width_ = width;
    if (x_ > 0.0f) ImGui::Indent(x_);  // Indent(0) would indent by the style's default
    ImGui::SetCursorScreenPos(ImVec2(row_top_.x + x_, row_top_.y));
}

void FlowLayout::end_block() {
    bottom_ = std::max(bottom_, ImGui::GetCursorScreenPos().y);
    if (x_ > 0.0f) ImGui::Unindent(x_);
    x_ += width_;
    empty_row_ = false;
}

void FlowLayout::finish() { ImGui::SetCursorScreenPos(ImVec2(origin_.x, bottom_)); }

float flow_height(const std::vector<ImVec2>& blocks, float avail, float gap) {
    float x = 0.0f, row = 0.0f, above = 0.0f;  // the current row's width and height; the rows above it
    for (size_t i = 0; i < blocks.size(); ++i) {
        const ImVec2& b = blocks[i];
        if (i > 0 && x + gap + b.x > avail) {
            above += row;
            x = 0.0f, row = 0.0f;
        } else if (i > 0) {
            x += gap;
        }
        x += b.x;
        row = std::max(row, b.y);
    }
    return above + row;
}

std::optional<float> largest_fitting_scale(float lo, float hi, const std::function<bool(float)>& fits) {
    if (fits(hi)) return hi;
    if (!fits(lo)) return std::nullopt;
    float good = lo, bad = hi;
    while (bad - good > (hi - lo) / 256.0f) {
        const float mid = 0.5f * (good + bad);
        (fits(mid) ? good : bad) = mid;
    }
    return good;
}

}  // namespace attnlab::gui
