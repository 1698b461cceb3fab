// Token labels along a row of cells, placed so that no two overlap: upright while every label fits its cell,
// else turned a quarter, and every stride-th label when even turned ones (one line tall) crowd each other.
// The attention view's own small routine (the grid's edges, an enlarged head, the stage player).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace attnlab::gui {

struct TokenLabelPlan {
    bool turned = false;  // drawn reading upwards, one line wide
    int stride = 1;       // every stride-th label is drawn, starting with the first
    float depth = 0.0f;   // the room the labels take across the axis, in pixels
};

// widths: each label's width in pixels (already cut to at most max_width); cell: the pixels between two
// labels' centres; line_h: the text's height; gap: the least space between two labels.
TokenLabelPlan plan_token_labels(const std::vector<float>& widths, float cell, float line_h, float gap);

// The label for a token in at most max_width pixels: the text itself, or its first characters and "…".
std::string fit_token_label(const std::string& text, float max_width);

// Draws `labels` along a row of cells starting at x0 (the left edge of the first cell), against the edge at y:
// below it when `below` (upright labels hang from y, turned ones end at y), else above it. Labels are cut to
// max_width first; `bright` (or -1) is drawn in the text colour, the rest dimmed. Returns the plan used.
TokenLabelPlan draw_column_labels(ImDrawList* draw, const std::vector<std::string>& labels, float x0, float y,
                                  float cell, bool below, float max_width, int bright = -1);

// Draws `labels` right-aligned against x, one per row of cells from y0, thinned while rows are shorter than a
// line. Labels are cut to max_width first.
void draw_row_labels(ImDrawList* draw, const std::vector<std::string>& labels, float x, float y0, float cell,
                     float max_width, int bright = -1);

// A column of n tokens spread down [top, top + height], centred, at most max_step apart (the head view's query
// and key columns): where token i sits, and which token's band holds a pointer.
struct TokenColumn {
    float first = 0.0f, step = 0.0f;  // the centre of token 0, and the distance between two
    int n = 0;
    static TokenColumn spread(float top, float height, int n, float max_step);
    float y(int i) const { return first + static_cast<float>(i) * step; }
    int at(float y) const;  // the token whose band (step tall, centred on it) holds y, or -1
};

// The room column labels take under or over cells of `cell` pixels.
float column_labels_depth(const std::vector<std::string>& labels, float cell, float max_width);

}  // namespace attnlab::gui
