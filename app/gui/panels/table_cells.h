// Table cells that are never squeezed unseen: a cell's text on one line, and a header wrapped at its spaces,
// each checked against its column's width. A cell narrower than its text is recorded in the TourTargetProbe,
// and --check-tour-target fails on it ("column 6 (||∂L/∂s||, ÷ √d_k): "0.142" is 44 px wide, the column 9").
#pragma once

#include "panels/panel_context.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::gui {

// The next column's cell: `text` on one line, whatever text wrap position is pushed.
void table_cell_text(PanelContext& ctx, const char* text);

// A header row (TableSetupColumn names each column; call after them): each label wrapped at its spaces to its
// column's width, on the header colour. Every word of a label must fit its column.
void table_wrapped_headers(PanelContext& ctx);

// The width a column needs: its widest cell and its label's widest word (labels wrap at spaces), in pixels.
// `measure` gives a text's width on one line.
float table_column_width(const std::string& label, const std::vector<std::string>& cells,
                         const std::function<float(std::string_view)>& measure);

}  // namespace attnlab::gui
