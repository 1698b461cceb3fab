// Two PE dimensions as curves over positions (sinusoidal: the continuous wave with the
// integer positions as dots; learned: the table's column), with wavelengths and a legend.
#include "ops/positional.h"
#include "panels/pe_tables.h"
#include "panels/tour_target.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace attnlab::gui {

namespace {

constexpr ImU32 kCurveColors[2] = {IM_COL32(255, 150, 40, 255), IM_COL32(70, 170, 255, 255)};

struct PlotFrame {
    ImVec2 min, max;  // the plotting area in pixels
    float x_hi = 1.0f, y_lo = -1.0f, y_hi = 1.0f;
    ImVec2 at(float x, float y) const {
        return ImVec2(min.x + (max.x - min.x) * x / x_hi, max.y - (max.y - min.y) * (y - y_lo) / (y_hi - y_lo));
    }
};

// A round tick spacing giving about `target` ticks over [0, span].
int tick_step(int span, int target) {
    const int raw = std::max(1, span / std::max(1, target));
    int step = 1;
    while (step * 10 <= raw) step *= 10;
    if (step * 5 <= raw) return step * 5;
    if (step * 2 <= raw) return step * 2;
    return step;
}

void draw_axes(ImDrawList* draw, const PlotFrame& f, int n_positions, float em) {
    const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled), grid = ImGui::GetColorU32(ImGuiCol_Separator);
    draw->AddRect(f.min, f.max, grid);
    if (f.y_lo < 0.0f && f.y_hi > 0.0f) draw->AddLine(f.at(0, 0), f.at(f.x_hi, 0), grid);
    char text[32];
    for (float y : {f.y_lo, 0.0f, f.y_hi}) {
        if (y < f.y_lo || y > f.y_hi) continue;
        std::snprintf(text, sizeof text, "%.2g", y);
        const ImVec2 p = f.at(0, y), size = ImGui::CalcTextSize(text);
        draw->AddText(ImVec2(p.x - size.x - 0.3f * em,
                             std::clamp(p.y - size.y * 0.5f, f.min.y - size.y * 0.5f, f.max.y - size.y * 0.5f)),
                      axis, text);
    }
    const int step = tick_step(n_positions - 1, 10);
    for (int pos = 0; pos < n_positions; pos += step) {
        const ImVec2 p = f.at(static_cast<float>(pos), f.y_lo);
        draw->AddLine(p, ImVec2(p.x, p.y + 0.3f * em), axis);
        std::snprintf(text, sizeof text, "%d", pos);
        draw->AddText(ImVec2(p.x - ImGui::CalcTextSize(text).x * 0.5f, p.y + 0.35f * em), axis, text);
    }
}

// Sinusoidal: the continuous wave sampled every 2 pixels, and a dot at each integer position when they are apart.
void draw_sinusoid(ImDrawList* draw, const PlotFrame& f, int j, int d_model, SinusoidLayout layout, ImU32 color,
                   float em) {
    const double omega = 2.0 * std::numbers::pi / pe_wavelength(j, d_model, layout);
    const bool even = sinusoid_column(j, d_model, layout).sine;  // a sine: starts at 0
    std::vector<ImVec2> points;
    const int n_samples = std::max(2, static_cast<int>((f.max.x - f.min.x) / 2.0f));
    for (int s = 0; s <= n_samples; ++s) {
        const double x = f.x_hi * static_cast<double>(s) / n_samples;
        points.push_back(
            f.at(static_cast<float>(x), static_cast<float>(even ? std::sin(x * omega) : std::cos(x * omega))));
    }
    draw->AddPolyline(points.data(), static_cast<int>(points.size()), color, 0, 2.0f);
    const float spacing = (f.max.x - f.min.x) / f.x_hi;
    if (spacing < 0.45f * em) return;
    for (int pos = 0; pos <= static_cast<int>(f.x_hi); ++pos)
        draw->AddCircleFilled(
            f.at(static_cast<float>(pos), static_cast<float>(even ? std::sin(pos * omega) : std::cos(pos * omega))),
            0.18f * em, color);
}

void draw_column(ImDrawList* draw, const PlotFrame& f, const Tensor& pe, int j, ImU32 color) {
    std::vector<ImVec2> points;
    for (int64_t pos = 0; pos < pe.dim(0); ++pos) points.push_back(f.at(static_cast<float>(pos), pe.row(pos)(j)));
    draw->AddPolyline(points.data(), static_cast<int>(points.size()), color, 0, 2.0f);
}

std::string curve_label(const PanelContext& ctx, int j, bool sinusoidal) {
    char text[160];
    const ModelConfig& c = ctx.config();
    const SinusoidColumn column = sinusoid_column(j, c.d_model, c.sinusoid_layout);
    if (sinusoidal)
        std::snprintf(text, sizeof text, "%s %d: %s, λ = 2π·10000^(%d/%d) = %.4g", ctx.t("dim"), j,
                      column.sine ? "sin" : "cos", static_cast<int>(2 * column.pair), c.d_model,
                      pe_wavelength(j, c.d_model, c.sinusoid_layout));
    else
        std::snprintf(text, sizeof text, "%s %d (%s)", ctx.t("dim"), j, ctx.t("learned"));
    return text;
}

void curve_tooltip(const PanelContext& ctx, const Tensor& pe, int pos, const int (&dims)[2], bool sinusoidal) {
    ImGui::BeginTooltip();
    ImGui::Text("%s %d", ctx.t("position"), pos);
    for (int k = 0; k < 2; ++k) {
        ImGui::PushStyleColor(ImGuiCol_Text, kCurveColors[k]);
        if (sinusoidal)
            ImGui::TextUnformatted(
                pe_formula(pos, dims[k], ctx.config().d_model, ctx.config().sinusoid_layout).c_str());
        else
            ImGui::Text("P[%d, %d] = %.4f", pos, dims[k], pe.row(pos)(dims[k]));
        ImGui::PopStyleColor();
    }
    ImGui::EndTooltip();
}

}  // namespace

void draw_pe_curves(PanelContext& ctx, const PeTables& tables, int n_tokens) {
    const Tensor& pe = tables.pe;  // (P, C)
    const int P = static_cast<int>(pe.dim(0)), C = static_cast<int>(pe.dim(1));
    const bool sinusoidal = ctx.config().positional == Positional::sinusoidal;
    int(&dims)[2] = ctx.view.positional.dims;
    for (int k = 0; k < 2; ++k) {  // the sliders double as the legend
        dims[k] = std::clamp(dims[k], 0, C - 1);
        ImGui::PushID(k);
        ImGui::PushStyleColor(ImGuiCol_SliderGrab, kCurveColors[k]);
        value_slider_int(ctx.t("dim"), "##dim", &dims[k], 0, C - 1, "%d", 8.0f * ctx.em);
        mark_tour_target(ctx, TourTaskKind::change_pe_dims);
        ImGui::PopStyleColor();
        ImGui::PopID();
        ImGui::SameLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float line = ImGui::GetFrameHeight();
        ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, p.y + line * 0.5f),
                                            ImVec2(p.x + 1.8f * ctx.em, p.y + line * 0.5f), kCurveColors[k], 3.0f);
        ImGui::Dummy(ImVec2(2.2f * ctx.em, line));
        ImGui::SameLine();
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(curve_label(ctx, dims[k], sinusoidal).c_str());
    }

    const float w = std::max(ImGui::GetContentRegionAvail().x, 20.0f * ctx.em), h = 11.0f * ctx.em;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("pe_curves", ImVec2(w, h));
    mark_tour_target(ctx, TourTaskKind::change_pe_dims);  // with the sliders: the curves they change
    PlotFrame f{ImVec2(origin.x + 3.0f * ctx.em, origin.y + 0.4f * ctx.em),
                ImVec2(origin.x + w - 0.5f * ctx.em, origin.y + h - 1.8f * ctx.em)};
    f.x_hi = static_cast<float>(std::max(1, P - 1));
    if (!sinusoidal) {
        f.y_lo = f.y_hi = pe.row(0)(dims[0]);
        for (int64_t pos = 0; pos < P; ++pos)
            for (int j : dims) f.y_lo = std::min(f.y_lo, pe.row(pos)(j)), f.y_hi = std::max(f.y_hi, pe.row(pos)(j));
        if (f.y_hi - f.y_lo < 1e-6f) f.y_hi = f.y_lo + 1.0f;
    }
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (n_tokens > 0)
        draw->AddRectFilled(f.at(0.0f, f.y_hi), f.at(std::min(n_tokens - 1.0f, f.x_hi), f.y_lo),
                            ImGui::GetColorU32(ImGuiCol_Header, 0.7f));
    draw_axes(draw, f, P, ctx.em);
    for (int k = 1; k >= 0; --k) {
        if (sinusoidal)
            draw_sinusoid(draw, f, dims[k], C, ctx.config().sinusoid_layout, kCurveColors[k], ctx.em);
        else
            draw_column(draw, f, pe, dims[k], kCurveColors[k]);
    }

    if (ImGui::IsItemHovered()) {
        const float x = (ImGui::GetIO().MousePos.x - f.min.x) / (f.max.x - f.min.x) * f.x_hi;
        const int pos = std::clamp(static_cast<int>(std::lround(x)), 0, P - 1);
        const ImVec2 top = f.at(static_cast<float>(pos), f.y_hi), bottom = f.at(static_cast<float>(pos), f.y_lo);
        draw->AddLine(top, bottom, ImGui::GetColorU32(ImGuiCol_Text, 0.6f));
        curve_tooltip(ctx, pe, pos, dims, sinusoidal);
    }
    if (sinusoidal)
        ImGui::TextUnformatted(
            ctx.t("Wavelengths grow geometrically from 2π (dimensions 0 and 1) towards 10000·2π (the last "
                  "dimensions), so every position gets its own pattern. The shaded band is this sentence."));
    else
        ImGui::TextUnformatted(
            ctx.t("Learned positions: each column is trained, not a fixed wave. The shaded band is this sentence."));
}

}  // namespace attnlab::gui
