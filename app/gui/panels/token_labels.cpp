// Token labels beside cells: the plan (upright, or turned and thinned), cutting a long token, and drawing.
#include "panels/token_labels.h"

#include "widgets/heatmap_widget.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

constexpr float kQuarterTurn = 1.5707963f;

float widest(const std::vector<float>& widths) {
    float w = 0.0f;
    for (float x : widths) w = std::max(w, x);
    return w;
}

std::vector<std::string> cut_all(const std::vector<std::string>& labels, float max_width, std::vector<float>& widths) {
    std::vector<std::string> out;
    out.reserve(labels.size());
    widths.clear();
    for (const std::string& l : labels) {
        out.push_back(fit_token_label(l, max_width));
        widths.push_back(ImGui::CalcTextSize(out.back().c_str()).x);
    }
    return out;
}

}  // namespace

TokenLabelPlan plan_token_labels(const std::vector<float>& widths, float cell, float line_h, float gap) {
    TokenLabelPlan plan;
    if (widths.empty() || cell <= 0.0f) return plan;
    const float w = widest(widths);
    if (w + gap <= cell) {  // every label fits over its own cell
        plan.depth = line_h;
        return plan;
    }
    plan.turned = true;
    plan.stride = std::max(1, static_cast<int>(std::ceil((line_h + gap) / cell)));
    plan.depth = w;
    return plan;
}

TokenColumn TokenColumn::spread(float top, float height, int n, float max_step) {
    TokenColumn c;
    c.n = n;
    if (n <= 0) return c;
    c.step = std::min(height / static_cast<float>(n), max_step);
    c.first = top + (height - c.step * static_cast<float>(n)) * 0.5f + 0.5f * c.step;
    return c;
}

int TokenColumn::at(float y) const {
    if (n <= 0 || step <= 0.0f) return -1;
    const int i = static_cast<int>(std::floor((y - first) / step + 0.5f));
    return i >= 0 && i < n ? i : -1;
}

std::string fit_token_label(const std::string& text, float max_width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= max_width) return text;
    // Drop whole UTF-8 characters from the end until the rest and "…" fit.
    std::string cut = text;
    while (!cut.empty()) {
        size_t end = cut.size() - 1;
        while (end > 0 && (static_cast<unsigned char>(cut[end]) & 0xC0) == 0x80) --end;  // a continuation byte
        cut.resize(end);
        if (ImGui::CalcTextSize((cut + "…").c_str()).x <= max_width) break;
    }
    return cut + "…";
}

float column_labels_depth(const std::vector<std::string>& labels, float cell, float max_width) {
    std::vector<float> widths;
    cut_all(labels, max_width, widths);
    const float gap = 0.3f * ImGui::GetFontSize();
    return plan_token_labels(widths, cell, ImGui::GetTextLineHeight(), gap).depth + gap;
}

TokenLabelPlan draw_column_labels(ImDrawList* draw, const std::vector<std::string>& labels, float x0, float y,
                                  float cell, bool below, float max_width, int bright) {
    std::vector<float> widths;
    const std::vector<std::string> cut = cut_all(labels, max_width, widths);
    const float line_h = ImGui::GetTextLineHeight(), gap = 0.3f * ImGui::GetFontSize();
    const TokenLabelPlan plan = plan_token_labels(widths, cell, line_h, gap);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (size_t j = 0; j < cut.size(); j += static_cast<size_t>(plan.stride)) {
        const float centre = x0 + (static_cast<float>(j) + 0.5f) * cell;
        const ImU32 color = static_cast<int>(j) == bright ? text : dim;
        if (!plan.turned) {
            const float ty = below ? y + 0.15f * gap : y - line_h - 0.15f * gap;
            draw->AddText(ImVec2(centre - widths[j] * 0.5f, ty), color, cut[j].c_str());
        } else {  // reading upwards: the text runs from its start at pos up the screen, one line to the right
            const float start_y = below ? y + gap + widths[j] : y - gap;
            draw_rotated_text(draw, ImVec2(centre - line_h * 0.5f, start_y), color, cut[j].c_str(), kQuarterTurn);
        }
    }
    return plan;
}

void draw_row_labels(ImDrawList* draw, const std::vector<std::string>& labels, float x, float y0, float cell,
                     float max_width, int bright) {
    const float line_h = ImGui::GetTextLineHeight();
    const int stride = std::max(1, static_cast<int>(std::ceil(line_h / cell)));
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (size_t i = 0; i < labels.size(); i += static_cast<size_t>(stride)) {
        const std::string l = fit_token_label(labels[i], max_width);
        const float w = ImGui::CalcTextSize(l.c_str()).x;
        draw->AddText(ImVec2(x - w, y0 + (static_cast<float>(i) + 0.5f) * cell - line_h * 0.5f),
                      static_cast<int>(i) == bright ? text : dim, l.c_str());
    }
}

}  // namespace attnlab::gui
