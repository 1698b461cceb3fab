// Left-to-right block layout with wrapping, through ImGui's indent.
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

}  // namespace attnlab::gui
