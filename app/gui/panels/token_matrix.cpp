// The large labelled matrix: layout (labels left and above), the texture, the numbers, the outlined cell.
#include "panels/token_matrix.h"

#include "widgets/label_draw.h"
#include "widgets/value_units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

float label_max(const TokenMatrix& m) { return m.label_max > 0.0f ? m.label_max : 6.0f * ImGui::GetFontSize(); }

// The query tokens left of the rows and the key tokens above the columns (widgets/label_layout.h), each cut
// to label_max; the marked cell's row and column always labelled.
struct MatrixLabels {
    AxisLabels rows, cols;
};

MatrixLabels matrix_labels(const TokenMatrix& m) {
    const float em = ImGui::GetFontSize(), margin = 0.4f * em, max = label_max(m);
    const TextMeasure measure = imgui_text_measure();
    MatrixLabels out;
    if (m.row_labels)
        out.rows = layout_axis_labels(*m.row_labels, measure,
                                      {LabelAxis::rows, m.cell, max + margin, 0.0f, 0.05f * em, m.mark_row, margin});
    if (m.col_labels)
        out.cols = layout_axis_labels(*m.col_labels, measure,
                                      {LabelAxis::columns, m.cell, max + margin, 0.0f, 0.3f * em, m.mark_col, margin});
    return out;
}

}  // namespace

std::string cell_number(float v, int decimals) {
    if (std::isinf(v)) return v < 0 ? "−∞" : "∞";
    char buf[32];
    const float a = std::abs(v);
    const int d = a >= 99.5f ? 0 : a >= 9.95f ? std::max(decimals - 1, 0) : decimals;  // about as wide as "-0.00"
    if (a < 0.5f * std::pow(10.0f, static_cast<float>(-d))) v = 0.0f;                  // "0.0", never "-0.0"
    std::snprintf(buf, sizeof buf, "%.*f", d, static_cast<double>(v));
    return buf;
}

ImVec2 token_matrix_size(const TokenMatrix& m) {
    const MatrixLabels labels = matrix_labels(m);
    return ImVec2(labels.rows.depth + m.cols * m.cell, labels.cols.depth + m.rows * m.cell);
}

void draw_token_matrix(const TokenMatrix& m) {
    const ImVec2 size = token_matrix_size(m);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::Dummy(size);
    if (m.rows <= 0 || m.cols <= 0) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const MatrixLabels labels = matrix_labels(m);
    const ImVec2 grid(std::floor(o.x + labels.rows.depth), std::floor(o.y + labels.cols.depth));
    const ImVec2 end(grid.x + m.cols * m.cell, grid.y + m.rows * m.cell);
    if (m.texture)
        draw->AddImage(m.texture, grid, end);
    else
        draw->AddRectFilled(grid, end, ImGui::GetColorU32(ImGuiCol_FrameBg));
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    draw_axis_labels(draw, grid, labels.rows, [&](int i) { return i == m.mark_row ? text : dim; });
    draw_axis_labels(draw, grid, labels.cols, [&](int j) { return j == m.mark_col ? text : dim; });
    // Numbers, white on a dark shadow so that they read on either end of a colormap.
    // Two decimals where they fit, else one.
    const float margin = 0.3f * ImGui::GetFontSize();
    const int decimals = ImGui::CalcTextSize("-0.00").x + margin <= m.cell  ? 2
                         : ImGui::CalcTextSize("-0.0").x + margin <= m.cell ? 1
                                                                            : -1;
    if (m.values && decimals >= 0) {
        const float line_h = ImGui::GetTextLineHeight();
        for (int i = 0; i < m.rows; ++i)
            for (int j = 0; j < m.cols; ++j) {
                const float v = m.values[static_cast<size_t>(i) * m.cols + j] * print_factor(m.exponent);
                const std::string s = cell_number(v, decimals);
                const float w = ImGui::CalcTextSize(s.c_str()).x;
                const ImVec2 p(grid.x + (j + 0.5f) * m.cell - w * 0.5f, grid.y + (i + 0.5f) * m.cell - line_h * 0.5f);
                draw->AddText(ImVec2(p.x + 1, p.y + 1), IM_COL32(0, 0, 0, 200), s.c_str());
                draw->AddText(p, IM_COL32(255, 255, 255, 255), s.c_str());
            }
    }
    if (m.mark_row >= 0 && m.mark_row < m.rows && m.mark_col >= 0 && m.mark_col < m.cols) {
        const ImVec2 a(grid.x + m.mark_col * m.cell, grid.y + m.mark_row * m.cell);
        draw->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + m.cell + 1, a.y + m.cell + 1), IM_COL32(255, 64, 64, 255),
                      0.0f, 0, 2.5f);
    }
}

}  // namespace attnlab::gui
