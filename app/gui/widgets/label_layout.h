// Where a heatmap's or a plot's axis labels go: one routine for every view, pure geometry (no ImGui).
// The caller measures text (label_draw.h's imgui_text_measure: ImGui::CalcTextSize, so Hangul has its
// real width) and draws the result (draw_axis_labels).
//
// Coordinates are pixels relative to the top-left corner of cell (0, 0), y downwards as on screen:
// the cells fill [0, n_cols·pitch] × [0, cells_height]. Column labels go above the cells (y < 0) or below
// them (y > cells_height), row labels to their left (x < 0), so the two never meet and neither touches a cell.
//
// Per axis, in this order:
//   columns: horizontal, centred on their column, when every label fits beside its neighbours and
//            within the cells' width;
//            else rotated 45° (or 90° when the pitch is too small for 45°), reading upwards: above the
//            cells the foot of each label stands just over its column, below them its end hangs just
//            under it; a label longer than the band (or than the room past the far end: right of the last
//            column above, left of the first below) is abbreviated with "…" (the caller shows the full
//            text on hover); at 90° the end columns' labels move inwards to stay within the cells' width;
//            else (pitch smaller than a line) thinned: every k-th label (k from 1, 2, 5, 10, …), the
//            first, the last and the kept (hovered) one always, horizontal or at 90°, whichever shows more
//            (at 90° on a tie when a label is wider than all the cells).
//   rows:    horizontal, right-aligned before the cells, abbreviated past the band's width, thinned when
//            the pitch is smaller than a line.
// Thinned labels are evenly spaced: every k-th one shows, each sliding along the axis if it must (its box still
// over its cell's centre and within the cells' span) to clear the one before it, such as an end label moved
// inwards; only a k-th label beside the last or the kept one may find no room.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::gui {

struct LabelSize {
    float w = 0.0f, h = 0.0f;
};
struct LabelPoint {
    float x = 0.0f, y = 0.0f;
};
struct LabelRect {
    float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;
    bool empty() const { return x1 <= x0 || y1 <= y0; }
    bool contains(LabelPoint p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
    bool overlaps(const LabelRect& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
    LabelRect grown(float d) const { return {x0 - d, y0 - d, x1 + d, y1 + d}; }
    LabelRect united(const LabelRect& o) const;  // the smallest rect holding both (an empty one adds nothing)
};
// A label's box on screen: its text's top-left, top-right, bottom-right and bottom-left corners after rotation.
struct LabelQuad {
    LabelPoint corner[4];
    LabelRect bounds() const;
};

// How wide and tall `text` is when drawn (in pixels).
using TextMeasure = std::function<LabelSize(std::string_view text)>;

enum class LabelAxis { columns, rows };
enum class LabelStyle { horizontal, rotated };
enum class LabelSide { above, below };  // where column labels go; row labels are always left of the cells

struct AxisLabelRequest {
    LabelAxis axis = LabelAxis::columns;
    float pitch = 16.0f;    // a cell's size along the axis
    float space = 96.0f;    // the most room across the axis: the band's height (columns) or width (rows)
    float end_room = 0.0f;  // columns: room past the far end that slanted labels may reach into (see above)
    float gap = 2.0f;       // clearance between two labels
    int keep = -1;          // a label always shown (the hovered cell's), or -1
    float margin = 4.0f;    // clearance between a label and the cells
    LabelSide side = LabelSide::above;
    float cells_height = 0.0f;  // columns below: the cells' height (n_rows · row pitch), the edge they hang from
    float word_gap = 0.0f;      // columns: the least room between two flat labels, so that neighbouring words
                                // read apart ("를 좋아해", not "를좋아해"); the gap when smaller
};

struct PlacedLabel {
    int index = 0;             // which label (its row or column)
    std::string text;          // what to draw: the label, or its abbreviation ending in "…"
    bool abbreviated = false;  // the caller shows the full text on hover
    LabelPoint pos;            // the text's top-left corner before rotation (ImDrawList::AddText's position)
    float angle = 0.0f;        // radians, counter-clockwise about pos (0: horizontal)
    LabelSize size;            // the drawn text's size
    LabelQuad box() const;     // where it lands on screen
};

struct AxisLabels {
    LabelStyle style = LabelStyle::horizontal;
    float angle = 0.0f;               // of every rotated label
    int stride = 1;                   // 1: every label; k: every k-th from index 0 (plus first, last and kept)
    std::vector<PlacedLabel> placed;  // in index order
    // The room to reserve: every label's box in this style, shown or not, so a hover never moves the cells.
    LabelRect reserve;
    // How far that room reaches out from the cells' edge, margin included: what to leave beside the cells
    // (above or below them for columns, left of them for rows) when sizing the cells to the space there is.
    float depth = 0.0f;
    int n_abbreviated() const;
    const PlacedLabel* at(LabelPoint p) const;  // the placed label whose box holds p, or nullptr
};

// Places `labels` (one per row or column, in order; an empty string is never shown) along one axis.
AxisLabels layout_axis_labels(const std::vector<std::string>& labels, const TextMeasure& measure,
                              const AxisLabelRequest& request);

// `text` cut at a character boundary and ended with "…" so it is at most `max_w` wide; the text itself
// when it fits; "" when not even one character and "…" fit.
std::string abbreviate_label(const std::string& text, float max_w, const TextMeasure& measure);

// Whether two convex quads share interior points (separating axis test).
bool quads_overlap(const LabelQuad& a, const LabelQuad& b);

}  // namespace attnlab::gui
