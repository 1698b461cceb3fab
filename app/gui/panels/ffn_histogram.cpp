// Histogram of the FFN values: 40 bins over [min, max], a tooltip per bar, axis ends labelled.
#include "panels/ffn_histogram.h"

#include "panels/word_wrap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace attnlab::gui {

namespace {

constexpr int kBins = 40;

struct Histogram {
    std::vector<int> counts = std::vector<int>(kBins, 0);
    float lo = 0.0f, hi = 1.0f;
    int zeros = 0, peak = 1;
    float bin_width() const { return (hi - lo) / kBins; }
};

Histogram histogram_of(const Tensor& values, bool skip_zeros) {
    Histogram h;
    bool first = true;
    for (float v : values.data) {
        if (skip_zeros && v == 0.0f) {
            ++h.zeros;
            continue;
        }
        h.lo = first ? v : std::min(h.lo, v);
        h.hi = first ? v : std::max(h.hi, v);
        first = false;
    }
    if (h.hi - h.lo < 1e-6f) h.hi = h.lo + 1e-6f;
    for (float v : values.data) {
        if (skip_zeros && v == 0.0f) continue;
        const int b = std::clamp(static_cast<int>((v - h.lo) / h.bin_width()), 0, kBins - 1);
        h.peak = std::max(h.peak, ++h.counts[static_cast<size_t>(b)]);
    }
    return h;
}

}  // namespace

void draw_ffn_histogram(const PanelContext& ctx, const Tensor& values, bool skip_zeros) {
    const Histogram h = histogram_of(values, skip_zeros);
    char title[256];  // wrapped: a narrow view (beside the tour's card in classroom mode) has no room for it whole
    if (skip_zeros)
        std::snprintf(title, sizeof title, ctx.t("Histogram of the non-zero values. Exactly 0: %d of %lld (%.1f%%)"),
                      h.zeros, static_cast<long long>(values.numel()),
                      100.0 * h.zeros / std::max<int64_t>(1, values.numel()));
    else
        std::snprintf(title, sizeof title, "%s", ctx.t("Histogram of the values"));
    text_wrapped_at_spaces(title);

    const float w = std::min(ImGui::GetContentRegionAvail().x, 32.0f * ctx.em), hgt = 7.0f * ctx.em;
    const float axis_h = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("ffn_histogram", ImVec2(w, hgt + axis_h));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float bar_w = w / kBins, base = p.y + hgt;
    const ImU32 bar = ImGui::GetColorU32(ImGuiCol_PlotHistogram),
                hot = ImGui::GetColorU32(ImGuiCol_PlotHistogramHovered);
    const int hovered = ImGui::IsItemHovered()
                            ? std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - p.x) / bar_w), 0, kBins - 1)
                            : -1;
    for (int b = 0; b < kBins; ++b) {
        const float top =
            base - hgt * static_cast<float>(h.counts[static_cast<size_t>(b)]) / static_cast<float>(h.peak);
        draw->AddRectFilled(ImVec2(p.x + b * bar_w + 1.0f, top), ImVec2(p.x + (b + 1) * bar_w - 1.0f, base),
                            b == hovered ? hot : bar);
    }
    const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    draw->AddLine(ImVec2(p.x, base), ImVec2(p.x + w, base), axis);
    char lo_text[32], hi_text[32];
    std::snprintf(lo_text, sizeof lo_text, "%.3g", h.lo);
    std::snprintf(hi_text, sizeof hi_text, "%.3g", h.hi);
    const float lo_w = ImGui::CalcTextSize(lo_text).x, hi_w = ImGui::CalcTextSize(hi_text).x;
    draw->AddText(ImVec2(p.x, base + 2.0f), axis, lo_text);
    draw->AddText(ImVec2(p.x + w - hi_w, base + 2.0f), axis, hi_text);
    if (h.lo < 0.0f && h.hi > 0.0f) {
        const float x0 = p.x + w * (-h.lo) / (h.hi - h.lo);
        draw->AddLine(ImVec2(x0, p.y), ImVec2(x0, base + 0.3f * ctx.em), axis);
        if (x0 > p.x + lo_w + ctx.em && x0 < p.x + w - hi_w - ctx.em)  // a "0" only where it cannot overlap the ends
            draw->AddText(ImVec2(x0 - ImGui::CalcTextSize("0").x * 0.5f, base + 2.0f), axis, "0");
    }
    if (hovered >= 0) {
        const float a = h.lo + hovered * h.bin_width();
        ImGui::SetTooltip("[%.4g, %.4g): %d", a, a + h.bin_width(), h.counts[static_cast<size_t>(hovered)]);
    }
}

}  // namespace attnlab::gui
