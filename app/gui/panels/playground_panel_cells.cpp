// Cell tables for the playground, drawn with ImDrawList: labels, coloured cells, numbers, focus.
#include "panels/playground_panel_cells.h"

#include "teach/hand_attention.h"
#include "teach/hand_formulas.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

constexpr ImU32 kFocusColor = IM_COL32(255, 170, 40, 255);

// The ramps of shaders/heatmap.frag, so these tables match the heatmaps of the other views:
// five colours each, blended linearly between neighbours.
using Ramp = float[5][3];
constexpr Ramp kSequential = {{0.267f, 0.005f, 0.329f},
                              {0.229f, 0.322f, 0.546f},
                              {0.128f, 0.567f, 0.551f},
                              {0.369f, 0.789f, 0.383f},
                              {0.993f, 0.906f, 0.144f}};
constexpr Ramp kDiverging = {{0.020f, 0.188f, 0.380f},
                             {0.400f, 0.660f, 0.860f},
                             {0.970f, 0.970f, 0.970f},
                             {0.940f, 0.520f, 0.400f},
                             {0.404f, 0.000f, 0.051f}};

ImVec4 ramp_color(const Ramp& c, float x) {  // x in [0, 4]
    const int i = std::clamp(static_cast<int>(x), 0, 3);
    const float f = x - static_cast<float>(i);
    return ImVec4(c[i][0] + (c[i + 1][0] - c[i][0]) * f, c[i][1] + (c[i + 1][1] - c[i][1]) * f,
                  c[i][2] + (c[i + 1][2] - c[i][2]) * f, 1.0f);
}

ImVec4 sequential_color(float t) { return ramp_color(kSequential, std::clamp(t, 0.0f, 1.0f) * 4.0f); }

ImVec4 diverging_color(float t) {
    return ramp_color(kDiverging, (std::clamp(t, -1.0f, 1.0f) + 1.0f) * 2.0f);
}  // t in [−1, 1]

ImU32 text_on(const ImVec4& bg) {
    const float luminance = 0.299f * bg.x + 0.587f * bg.y + 0.114f * bg.z;
    return luminance > 0.5f ? IM_COL32(20, 20, 20, 255) : IM_COL32(250, 250, 250, 255);
}

float max_abs_finite(const Mat& m) {
    float hi = 0.0f;
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (std::isfinite(m.data()[i])) hi = std::max(hi, std::abs(m.data()[i]));
    return std::max(hi, 1e-6f);
}

ImVec4 cell_color(float v, CellScale scale, float range) {
    return scale == CellScale::probabilities ? sequential_color(v) : diverging_color(v / range);
}

// Where the cells of a grid go: labels left and above, cells of cell_w × cell_h from `cells`.
struct Geometry {
    ImVec2 origin, cells;
    float cell_w = 0.0f, cell_h = 0.0f;
    int rows = 0, cols = 0;
    ImVec2 cell_min(int r, int c) const { return ImVec2(cells.x + c * cell_w, cells.y + r * cell_h); }
    ImVec2 cells_max() const { return ImVec2(cells.x + cols * cell_w, cells.y + rows * cell_h); }
};

float row_label_width(const CellGrid& g) {
    float w = 0.0f;
    if (g.row_labels)
        for (const auto& l : *g.row_labels) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
    return w + 0.4f * ImGui::GetFontSize();
}

// Lays the grid out at the cursor and draws its labels.
Geometry begin_grid(const CellGrid& g, int rows, int cols) {
    const float em = ImGui::GetFontSize();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    Geometry geo;
    geo.origin = ImGui::GetCursorScreenPos();
    geo.cells = ImVec2(geo.origin.x + row_label_width(g),
                       geo.origin.y + (g.col_labels ? ImGui::GetTextLineHeight() + 0.15f * em : 0.0f));
    geo.cell_w = g.cell_w;
    geo.cell_h = ImGui::GetFrameHeight() + 0.2f * em;
    geo.rows = rows, geo.cols = cols;
    for (int c = 0; g.col_labels && c < cols && c < static_cast<int>(g.col_labels->size()); ++c) {
        const char* l = (*g.col_labels)[static_cast<size_t>(c)].c_str();
        draw->AddText(ImVec2(geo.cell_min(0, c).x + (geo.cell_w - ImGui::CalcTextSize(l).x) * 0.5f, geo.origin.y), dim,
                      l);
    }
    for (int r = 0; g.row_labels && r < rows && r < static_cast<int>(g.row_labels->size()); ++r) {
        const char* l = (*g.row_labels)[static_cast<size_t>(r)].c_str();
        const ImVec2 size = ImGui::CalcTextSize(l);
        draw->AddText(ImVec2(geo.cells.x - 0.4f * em - size.x, geo.cell_min(r, 0).y + (geo.cell_h - size.y) * 0.5f),
                      dim, l);
    }
    return geo;
}

// Reserves the grid's rectangle so the layout moves on past it.
void end_grid(const Geometry& geo) {
    ImGui::SetCursorScreenPos(geo.origin);
    ImGui::Dummy(ImVec2(geo.cells_max().x - geo.origin.x, geo.cells_max().y - geo.origin.y));
}

void draw_focus(const Geometry& geo, const CellGrid& g) {
    if (g.focus_row < 0 || g.focus_row >= geo.rows || g.focus_col >= geo.cols) return;
    const bool whole_row = g.focus_col < 0;
    const ImVec2 a = geo.cell_min(g.focus_row, whole_row ? 0 : g.focus_col);
    const ImVec2 b(whole_row ? geo.cells_max().x : a.x + geo.cell_w, a.y + geo.cell_h);
    ImGui::GetWindowDrawList()->AddRect(a, b, kFocusColor, 0.0f, 0, std::max(2.0f, 0.14f * ImGui::GetFontSize()));
}

// One cell: its colour (or grey stripes when blocked), and its text centred.
void draw_cell(const Geometry& geo, int r, int c, const ImVec4* color, const std::string& text) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float inset = 1.0f;
    const ImVec2 a(geo.cell_min(r, c).x + inset, geo.cell_min(r, c).y + inset);
    const ImVec2 b(a.x + geo.cell_w - 2 * inset, a.y + geo.cell_h - 2 * inset);
    ImU32 ink = IM_COL32(250, 250, 250, 255);
    if (color) {
        draw->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(*color));
        ink = text_on(*color);
    } else {  // blocked: the heatmaps' hatching
        draw->AddRectFilled(a, b, IM_COL32(61, 61, 61, 255));
        draw->PushClipRect(a, b, true);
        const float step = 0.45f * ImGui::GetFontSize();
        for (float x = a.x - (b.y - a.y); x < b.x; x += step)
            draw->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y), IM_COL32(107, 107, 107, 255), step * 0.45f);
        draw->PopClipRect();
    }
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    draw->AddText(ImVec2((a.x + b.x - size.x) * 0.5f, (a.y + b.y - size.y) * 0.5f), ink, text.c_str());
}

// The hovered cell of the grid's cells area, with one invisible button over all of them.
CellHit hit_test(const Geometry& geo, const char* id) {
    CellHit hit;
    ImGui::SetCursorScreenPos(geo.cells);
    const ImVec2 max = geo.cells_max();
    ImGui::InvisibleButton(id, ImVec2(std::max(1.0f, max.x - geo.cells.x), std::max(1.0f, max.y - geo.cells.y)));
    if (!ImGui::IsItemHovered()) return hit;
    const ImVec2 m = ImGui::GetIO().MousePos;
    hit.col = std::clamp(static_cast<int>((m.x - geo.cells.x) / geo.cell_w), 0, geo.cols - 1);
    hit.row = std::clamp(static_cast<int>((m.y - geo.cells.y) / geo.cell_h), 0, geo.rows - 1);
    hit.clicked = ImGui::IsItemClicked();
    const ImVec2 a = geo.cell_min(hit.row, hit.col);
    ImGui::GetWindowDrawList()->AddRect(a, ImVec2(a.x + geo.cell_w, a.y + geo.cell_h),
                                        ImGui::GetColorU32(ImGuiCol_Text));
    return hit;
}

}  // namespace

CellHit value_table(const CellGrid& g, const Mat& values, CellScale scale) {
    const int rows = static_cast<int>(values.rows()), cols = static_cast<int>(values.cols());
    const Geometry geo = begin_grid(g, rows, cols);
    const float range = max_abs_finite(values);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const float v = values(r, c);
            const ImVec4 color = cell_color(v, scale, range);
            draw_cell(geo, r, c, std::isfinite(v) ? &color : nullptr, hand_number(v));
        }
    draw_focus(geo, g);
    const CellHit hit = hit_test(geo, g.id);
    end_grid(geo);
    return hit;
}

bool input_table(const CellGrid& g, Mat& values) {
    const int rows = static_cast<int>(values.rows()), cols = static_cast<int>(values.cols());
    const Geometry geo = begin_grid(g, rows, cols);
    const float range = max_abs_finite(values), pad = 0.1f * ImGui::GetFontSize();
    bool changed = false;
    ImGui::PushID(g.id);
    ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize,
                        std::max(1.0f, 0.07f * ImGui::GetFontSize()));  // framed: typeable
    ImGui::PushStyleColor(ImGuiCol_Border, ImGui::GetStyleColorVec4(ImGuiCol_Text));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            float& v = values(r, c);
            const ImVec4 bg = diverging_color(v / range);
            ImGui::PushStyleColor(ImGuiCol_FrameBg, bg);
            ImGui::PushStyleColor(ImGuiCol_FrameBgHovered, ImVec4(bg.x * 0.85f, bg.y * 0.85f, bg.z * 0.85f, 1.0f));
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(text_on(bg)));
            ImGui::SetCursorScreenPos(ImVec2(geo.cell_min(r, c).x + pad, geo.cell_min(r, c).y + pad));
            ImGui::SetNextItemWidth(geo.cell_w - 2.0f * pad);
            ImGui::PushID(r * cols + c);
            if (ImGui::InputFloat("##v", &v, 0.0f, 0.0f, "%.4g")) {
                v = std::isfinite(v) ? std::clamp(v, -kHandMaxAbs, kHandMaxAbs) : 0.0f;
                changed = true;
            }
            ImGui::PopID();
            ImGui::PopStyleColor(3);
        }
    ImGui::PopStyleColor();
    ImGui::PopStyleVar();
    ImGui::PopID();
    end_grid(geo);
    return changed;
}

bool mask_table(const CellGrid& g, Mat& mask) {
    const int n = static_cast<int>(mask.rows());
    const Geometry geo = begin_grid(g, n, n);
    const ImVec4 allowed = sequential_color(1.0f);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            draw_cell(geo, r, c, mask(r, c) != 0.0f ? &allowed : nullptr, mask(r, c) != 0.0f ? "1" : "0");
    draw_focus(geo, g);
    const CellHit hit = hit_test(geo, g.id);
    end_grid(geo);
    if (hit.row >= 0) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    if (!hit.clicked) return false;
    mask(hit.row, hit.col) = mask(hit.row, hit.col) != 0.0f ? 0.0f : 1.0f;
    return true;
}

float grid_width(const CellGrid& g, int cols) { return row_label_width(g) + static_cast<float>(cols) * g.cell_w; }

float cell_width(const std::vector<const Mat*>& matrices, float min_em) {
    const float em = ImGui::GetFontSize();
    float w = min_em * em;
    for (const Mat* m : matrices)
        for (Eigen::Index i = 0; i < m->size(); ++i)
            w = std::max(w, ImGui::CalcTextSize(hand_number(m->data()[i]).c_str()).x + 0.9f * em);
    return w;
}

std::string subscript(int n) {
    std::string digit = "\u2080";  // U+2080 + n differs from ₀ in the last UTF-8 byte only
    digit[2] = static_cast<char>(0x80 + std::clamp(n, 0, 9));
    return digit;
}

std::vector<std::string> indexed_labels(const char* prefix, int n) {
    std::vector<std::string> labels;
    for (int i = 1; i <= n; ++i) labels.push_back(prefix + subscript(i));
    return labels;
}

std::vector<std::string> number_labels(int n) {
    std::vector<std::string> labels;
    for (int i = 1; i <= n; ++i) labels.push_back(std::to_string(i));
    return labels;
}

}  // namespace attnlab::gui
