// FlowLayout: blocks laid left to right, wrapping to a new row when the next one does not fit
// (the masks and positional views use it), and the height such a layout takes. Blocks are placed through the indent, not inside
// ImGui groups, because colorbar_widget's SameLine(x) lands too far right inside a group.
#pragma once

#include <imgui.h>

#include <functional>
#include <optional>
#include <vector>

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

// The height of `blocks` (width, height each) as FlowLayout lays them out in `avail` with `gap`: rows
// left to right, each as tall as its tallest block.
float flow_height(const std::vector<ImVec2>& blocks, float avail, float gap);

// The largest scale in [lo, hi] for which fits(scale) holds, found by bisection to 1/256 of the range;
// nullopt when not even lo fits. Only scales seen to fit are returned, however fits() varies in between.
std::optional<float> largest_fitting_scale(float lo, float hi, const std::function<bool(float)>& fits);

}  // namespace attnlab::gui
