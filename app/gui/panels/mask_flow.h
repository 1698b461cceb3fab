// FlowLayout: blocks laid left to right, wrapping to a new row when the next one does not fit
// (the masks and positional views use it). Blocks are placed through the indent, not inside
// ImGui groups, because colorbar_widget's SameLine(x) lands too far right inside a group.
#pragma once

#include <imgui.h>

namespace attnlab::gui {

class FlowLayout {
public:
    // avail: the row width (0 stacks every block); gap: the space between blocks.
    FlowLayout(float avail, float gap);
    void begin_block(float width);  // the block's width, for wrapping
    void end_block();
    void finish();  // puts the cursor below the lowest block

private:
    ImVec2 origin_, row_top_;
    float avail_, gap_, x_ = 0.0f, width_ = 0.0f, bottom_;
    bool empty_row_ = true;
};

}  // namespace attnlab::gui
