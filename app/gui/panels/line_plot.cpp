// The line plot: map data to pixels (linear or log10 y), draw grid, ticks, series, the legend above, hover.
#include "panels/line_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace attnlab::gui {

namespace {

constexpr float kLogFloor = 1e-4f;  // a log axis shows values down to this

ImU32 with_alpha(ImU32 color, float alpha) {
    ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
    c.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(c);
}

// 1, 2 or 5 × 10^k, the smallest at least `raw`.
float nice_step(float raw) {
    const float decade = std::pow(10.0f, std::floor(std::log10(raw)));
    for (float m : {1.0f, 2.0f, 5.0f, 10.0f})
        if (m * decade >= raw * 0.999f) return m * decade;
    return 10.0f * decade;
}

std::string format_tick(const char* format, float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, static_cast<double>(v));
    return buf;
}

// The x label of a hovered point: steps are whole numbers.
std::string format_x(float x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", static_cast<double>(x));
    return buf;
}

}  // namespace

std::vector<float> nice_ticks(float lo, float hi, bool log_axis, int target_count) {
    std::vector<float> ticks;
    if (!(hi > lo) || target_count < 1) return ticks;
    if (!log_axis) {
        const float step = nice_step((hi - lo) / static_cast<float>(target_count));
        for (float v = std::ceil(lo / step - 1e-4f) * step; v <= hi + step * 1e-4f; v += step)
            ticks.push_back(std::abs(v) < step * 1e-4f ? 0.0f : v);
        return ticks;
    }
    lo = std::max(lo, kLogFloor);
    const int first = static_cast<int>(std::floor(std::log10(lo))), last = static_cast<int>(std::ceil(std::log10(hi)));
    // Powers of ten; over few decades also their 2× and 5×; within about one decade every 1..9×.
    for (const std::vector<float>& multiples :
         {std::vector<float>{1.0f}, std::vector<float>{1.0f, 2.0f, 5.0f},
          std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f}}) {
        ticks.clear();
        for (int e = first; e <= last; ++e)
            for (float m : multiples) {
                const float v = m * std::pow(10.0f, static_cast<float>(e));
                if (v >= lo * 0.999f && v <= hi * 1.001f) ticks.push_back(v);
            }
        if (static_cast<int>(ticks.size()) >= std::min(3, target_count)) return ticks;
    }
    return nice_ticks(lo, hi, false, target_count);  // a narrow range: round linear values, placed on the log scale
}

std::vector<ImVec2> legend_flow(const std::vector<float>& entry_widths, float width, float gap, float row_height) {
    std::vector<ImVec2> at;
    float x = 0.0f, y = 0.0f;
    for (float w : entry_widths) {
        if (x > 0.0f && x + w > width) x = 0.0f, y += row_height;
        at.emplace_back(x, y);
        x += w + gap;
    }
    return at;
}

void line_plot(const char* id, ImVec2 size, const PlotAxes& axes, const std::vector<PlotSeries>& series) {
    const float em = ImGui::GetFontSize(), line_h = ImGui::GetTextLineHeight();
    const float scale = em / 17.0f;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, size);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 grid = with_alpha(text, 0.12f), frame = ImGui::GetColorU32(ImGuiCol_FrameBg);

    // ---- the data's y range ----
    float y_lo = std::numeric_limits<float>::max(), y_hi = std::numeric_limits<float>::lowest();
    bool any = false;
    for (const auto& s : series)
        for (const ImVec2& p : s.points) {
            if (!std::isfinite(p.y) || (axes.log_y && p.y <= 0.0f)) continue;
            y_lo = std::min(y_lo, p.y), y_hi = std::max(y_hi, p.y);
            any = true;
        }
    if (axes.fixed_y) {
        y_lo = axes.y_min, y_hi = axes.y_max;
    } else if (!any) {
        y_lo = axes.log_y ? 0.1f : 0.0f, y_hi = axes.log_y ? 10.0f : 1.0f;
    } else if (axes.log_y) {
        y_lo = std::max(y_lo, kLogFloor) / 1.25f, y_hi = std::max(y_hi * 1.25f, y_lo * 2.0f);
    } else {
        const float pad = std::max((y_hi - y_lo) * 0.08f, 1e-3f);
        y_lo = y_lo >= 0.0f ? std::max(0.0f, y_lo - pad) : y_lo - pad;  // a positive quantity's axis stops at 0
        y_hi += pad;
    }
    const std::vector<float> y_ticks =
        nice_ticks(y_lo, y_hi, axes.log_y, std::max(2, static_cast<int>(size.y / (3.0f * em))));
    const float x_lo = axes.x_min, x_hi = axes.x_max > axes.x_min ? axes.x_max : axes.x_min + 1.0f;
    const float x_tick_spacing = (axes.x_log2 ? 3.0f : 6.0f) * em;  // 2^x labels are short: "512"
    const std::vector<float> x_ticks =
        nice_ticks(x_lo, x_hi, false, std::max(2, static_cast<int>(size.x / x_tick_spacing)));

    // ---- the plot rectangle: room for the y tick labels on the left, the y label and the legend above,
    // the axis labels and x ticks below ----
    float y_label_w = 0.0f;
    for (float t : y_ticks)
        y_label_w = std::max(y_label_w, ImGui::CalcTextSize(format_tick(axes.y_tick_format, t).c_str()).x);
    const bool has_y_label = axes.y_label && *axes.y_label;
    const float left = p0.x + y_label_w + 0.6f * em, right = p0.x + size.x - 0.6f * em;
    const float swatch = 1.6f * em, entry_gap = 1.2f * em;
    std::vector<float> entry_widths;
    for (const auto& s : series) entry_widths.push_back(swatch + ImGui::CalcTextSize(s.label.c_str()).x);
    const std::vector<ImVec2> legend = legend_flow(entry_widths, right - left, entry_gap, line_h);
    const float legend_top = p0.y + (has_y_label ? line_h + 0.2f * em : 0.0f);
    const float legend_h = legend.empty() ? 0.0f : legend.back().y + line_h;
    const ImVec2 a(left, legend_top + legend_h + 0.6f * line_h);  // the top tick's label needs half a line
    const ImVec2 b(right, p0.y + size.y - 2.0f * line_h - 0.5f * em);
    if (b.x - a.x < 2.0f * em || b.y - a.y < 2.0f * em) return;  // too small to say anything
    auto to_x = [&](float x) { return a.x + (x - x_lo) / (x_hi - x_lo) * (b.x - a.x); };
    auto y_unit = [&](float y) {  // 0 at the bottom, 1 at the top
        if (!axes.log_y) return (y - y_lo) / (y_hi - y_lo);
        return (std::log10(std::max(y, kLogFloor)) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo));
    };
    auto to_y = [&](float y) { return b.y - y_unit(y) * (b.y - a.y); };

    draw->AddRectFilled(a, b, frame);
    for (float t : y_ticks) {
        const float y = to_y(t);
        draw->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), grid);
        const std::string label = format_tick(axes.y_tick_format, t);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        draw->AddText(ImVec2(a.x - 0.3f * em - ts.x, y - ts.y * 0.5f), dim, label.c_str());
    }
    for (float t : x_ticks) {
        const float x = to_x(t);
        draw->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), grid);
        const std::string label = format_tick("%g", axes.x_log2 ? std::exp2(t) : t);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        draw->AddText(ImVec2(std::clamp(x - ts.x * 0.5f, p0.x, b.x - ts.x), b.y + 0.2f * em), dim, label.c_str());
    }
    draw->AddRect(a, b, with_alpha(text, 0.35f));
    // Axis labels: y above the axis (ImGui draws no rotated text), x centred below the ticks.
    if (has_y_label) draw->AddText(ImVec2(p0.x, p0.y), dim, axes.y_label);
    const float x_label_w = ImGui::CalcTextSize(axes.x_label).x;
    draw->AddText(ImVec2((a.x + b.x - x_label_w) * 0.5f, b.y + line_h + 0.35f * em), dim, axes.x_label);

    // ---- the series ----
    draw->PushClipRect(a, b, true);
    std::vector<ImVec2> px;
    for (const auto& s : series) {
        px.clear();
        for (const ImVec2& p : s.points)
            if (std::isfinite(p.y)) px.emplace_back(to_x(p.x), to_y(p.y));
        if (px.size() >= 2) draw->AddPolyline(px.data(), static_cast<int>(px.size()), s.color, 0, s.thickness * scale);
        if (s.dots || px.size() == 1)
            for (const ImVec2& q : px) draw->AddCircleFilled(q, 3.0f * scale, s.color);
    }
    if (axes.marker_x && *axes.marker_x >= x_lo && *axes.marker_x <= x_hi) {
        const float mx = to_x(*axes.marker_x);
        draw->AddLine(ImVec2(mx, a.y), ImVec2(mx, b.y), with_alpha(text, 0.85f), 2.0f * scale);
        for (const auto& s : series) {
            if (s.points.empty()) continue;
            const auto it = std::min_element(s.points.begin(), s.points.end(), [&](const ImVec2& p, const ImVec2& q) {
                return std::abs(p.x - *axes.marker_x) < std::abs(q.x - *axes.marker_x);
            });
            if (!std::isfinite(it->y)) continue;
            const ImVec2 q(to_x(it->x), to_y(it->y));
            draw->AddCircleFilled(q, 5.0f * scale, text);
            draw->AddCircleFilled(q, 3.5f * scale, s.color);
        }
    }
    draw->PopClipRect();
    bool has_points = false;
    for (const auto& s : series) has_points = has_points || !s.points.empty();
    if (!has_points && axes.empty_note) {
        const ImVec2 ts = ImGui::CalcTextSize(axes.empty_note);
        draw->AddText(ImVec2((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f), dim, axes.empty_note);
    }

    // ---- the legend, above the plot: it never hides a curve ----
    for (size_t i = 0; i < series.size(); ++i) {
        const ImVec2 at(a.x + legend[i].x, legend_top + legend[i].y);
        draw->AddLine(ImVec2(at.x, at.y + line_h * 0.5f), ImVec2(at.x + 1.2f * em, at.y + line_h * 0.5f),
                      series[i].color, 2.5f * scale);
        draw->AddText(ImVec2(at.x + swatch, at.y), text, series[i].label.c_str());
    }

    // ---- hover: a vertical line and each series' nearest point ----
    if (!hovered || !has_points) return;
    const float mx = ImGui::GetIO().MousePos.x;
    if (mx < a.x || mx > b.x) return;
    const float x = x_lo + (mx - a.x) / (b.x - a.x) * (x_hi - x_lo);
    draw->AddLine(ImVec2(mx, a.y), ImVec2(mx, b.y), with_alpha(text, 0.4f));
    ImGui::BeginTooltip();
    auto x_value = [&](float v) { return format_x(axes.x_log2 ? std::exp2(v) : v); };
    ImGui::TextDisabled("%s %s", axes.x_label, x_value(x).c_str());
    for (const auto& s : series) {
        if (s.points.empty()) continue;
        const auto it = std::min_element(s.points.begin(), s.points.end(), [&](const ImVec2& p, const ImVec2& q) {
            return std::abs(p.x - x) < std::abs(q.x - x);
        });
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.color), "%s", s.label.c_str());
        ImGui::SameLine();
        ImGui::Text(s.value_format, static_cast<double>(it->y));
        ImGui::SameLine();
        ImGui::TextDisabled("(%s)", x_value(it->x).c_str());
    }
    ImGui::EndTooltip();
}

}  // namespace attnlab::gui
