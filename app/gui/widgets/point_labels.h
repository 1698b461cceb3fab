// Labels for the points of a scatter plot (the embeddings map), placed greedily without collisions:
// pure geometry, no ImGui. Each label tries spots around its point, nearest first (right, left, above,
// below, the diagonals), then the same directions further out, joined to its point by a leader line;
// a label that fits nowhere is dropped (the caller shows it on hover). A spot is taken only if it stays
// inside the plot, clears every placed label and every point by `gap`, its leader line crosses no
// placed label, and its box (grown by `gap`) covers no placed leader line: no line runs through a label.
#pragma once

#include "widgets/label_layout.h"

#include <vector>

namespace attnlab::gui {

struct PointLabel {
    bool placed = false;     // false: no room anywhere; shown only on hover
    LabelRect box;           // the text's box (its top-left is where the text starts)
    bool leader = false;     // displaced from its point: a line joins them
    LabelPoint leader_from;  // the point's edge, towards the box
    LabelPoint leader_to;    // the box's point nearest the point
};

struct PointLabelRequest {
    LabelRect area;           // the plot: labels stay inside it
    float dot_radius = 4.0f;  // each point is drawn as a dot of this radius
    float gap = 2.0f;         // clearance around labels and dots
    int rings = 4;            // how far labels may move: rings of spots beyond the adjacent one
};

// One label per point, in priority order (the first is placed first); sizes measured by the caller.
std::vector<PointLabel> place_point_labels(const std::vector<LabelPoint>& points, const std::vector<LabelSize>& sizes,
                                           const PointLabelRequest& request);

// The box of a label put at its first spot, right of its point (where a dropped label is shown on hover).
LabelRect point_label_beside(LabelPoint point, LabelSize size, const PointLabelRequest& request);

// Whether the segment a-b passes through the rect.
bool segment_hits_rect(LabelPoint a, LabelPoint b, const LabelRect& r);

}  // namespace attnlab::gui
