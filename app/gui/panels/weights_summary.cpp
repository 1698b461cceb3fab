// Weight statistics (count, mean, std, min, max, near-zero fraction) and a 40-bin histogram.
#include "panels/weights_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::gui {

WeightSummary summarize_weights(const Tensor& t) {
    if (t.is_bf16()) return summarize_weights(widened(t));  // a BF16 weight: its floats, for this summary only
    WeightSummary s;
    s.count = t.numel();
    if (s.count == 0) return s;
    double sum = 0.0, sum_sq = 0.0;
    float mn = t.data[0], mx = t.data[0];
    for (float v : t.data) {
        sum += v;
        sum_sq += static_cast<double>(v) * v;
        mn = std::min(mn, v);
        mx = std::max(mx, v);
    }
    const double n = static_cast<double>(s.count);
    s.mean = sum / n;
    s.std = std::sqrt(std::max(0.0, sum_sq / n - s.mean * s.mean));
    s.min = mn;
    s.max = mx;
    s.lo = mn == mx ? mn - 1.0f : mn;
    s.hi = mn == mx ? mx + 1.0f : mx;
    const float small = 0.01f * std::max(std::abs(mn), std::abs(mx));
    const float scale = static_cast<float>(kWeightBins) / (s.hi - s.lo);
    int64_t near_zero = 0;
    for (float v : t.data) {
        near_zero += std::abs(v) < small;
        ++s.bins[static_cast<size_t>(std::clamp(static_cast<int>((v - s.lo) * scale), 0, kWeightBins - 1))];
    }
    s.near_zero = static_cast<float>(static_cast<double>(near_zero) / n);
    return s;
}

namespace {

void stat_row(const char* label, const char* format, double value) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", label);
    ImGui::TableNextColumn();
    ImGui::Text(format, value);
}

void stats_table(const PanelContext& ctx, const Tensor& t, const WeightSummary& s) {
    if (!ImGui::BeginTable("weight_stats", 2, ImGuiTableFlags_SizingFixedFit, ImVec2(17.0f * ctx.em, 0.0f))) return;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", ctx.t("shape"));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(shape_string(t.shape).c_str());
    stat_row(ctx.t("count"), "%.0f", static_cast<double>(s.count));
    stat_row(ctx.t("mean"), "%.4g", s.mean);
    stat_row(ctx.t("std"), "%.4g", s.std);
    stat_row(ctx.t("min"), "%.4g", static_cast<double>(s.min));
    stat_row(ctx.t("max"), "%.4g", static_cast<double>(s.max));
    stat_row(ctx.t("near zero"), "%.1f%%", 100.0 * static_cast<double>(s.near_zero));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t("|v| < 1% of max |v|"));
    ImGui::EndTable();
}

void histogram(const PanelContext& ctx, const WeightSummary& s, ImVec2 size) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float line = ImGui::GetTextLineHeight(), bin_w = size.x / kWeightBins;
    const float base = o.y + size.y;
    const int64_t tallest = std::max<int64_t>(1, *std::max_element(s.bins.begin(), s.bins.end()));
    const ImU32 bar = ImGui::GetColorU32(ImGuiCol_PlotHistogram),
                hover_bar = ImGui::GetColorU32(ImGuiCol_PlotHistogramHovered);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool inside = ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(o, ImVec2(o.x + size.x, base));
    const int hovered = inside ? std::clamp(static_cast<int>((mouse.x - o.x) / bin_w), 0, kWeightBins - 1) : -1;
    draw->AddRectFilled(o, ImVec2(o.x + size.x, base), ImGui::GetColorU32(ImGuiCol_FrameBg));
    for (int b = 0; b < kWeightBins; ++b) {
        const int64_t n = s.bins[static_cast<size_t>(b)];
        if (n == 0) continue;
        const float h = std::max(1.0f, size.y * static_cast<float>(n) / static_cast<float>(tallest));
        draw->AddRectFilled(ImVec2(o.x + b * bin_w + 0.5f, base - h), ImVec2(o.x + (b + 1) * bin_w - 0.5f, base),
                            b == hovered ? hover_bar : bar);
    }
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    if (s.lo < 0.0f && s.hi > 0.0f) {  // where zero is
        const float x0 = o.x + size.x * (-s.lo) / (s.hi - s.lo);
        draw->AddLine(ImVec2(x0, o.y), ImVec2(x0, base + 0.3f * line), text);
        draw->AddText(ImVec2(x0 - ImGui::CalcTextSize("0").x * 0.5f, base + 0.3f * line), text, "0");
    }
    char lo[32], hi[32];
    std::snprintf(lo, sizeof lo, "%.3g", static_cast<double>(s.lo));
    std::snprintf(hi, sizeof hi, "%.3g", static_cast<double>(s.hi));
    draw->AddText(ImVec2(o.x, base + 0.3f * line), text, lo);
    draw->AddText(ImVec2(o.x + size.x - ImGui::CalcTextSize(hi).x, base + 0.3f * line), text, hi);
    ImGui::Dummy(ImVec2(size.x, size.y + 1.4f * line));
    if (hovered < 0) return;
    const float width = (s.hi - s.lo) / kWeightBins;
    const int64_t n = s.bins[static_cast<size_t>(hovered)];
    ImGui::SetTooltip("[%.4g, %.4g)\n%lld %s (%.2f%%)", static_cast<double>(s.lo + width * hovered),
                      static_cast<double>(s.lo + width * (hovered + 1)), static_cast<long long>(n), ctx.t("values"),
                      100.0 * static_cast<double>(n) / static_cast<double>(std::max<int64_t>(1, s.count)));
}

}  // namespace

void draw_weight_summary(const PanelContext& ctx, const Tensor& t, const WeightSummary& s) {
    ImGui::BeginGroup();
    stats_table(ctx, t, s);
    ImGui::EndGroup();
    ImGui::SameLine(0.0f, 2.0f * ctx.em);
    ImGui::BeginGroup();
    ImGui::TextDisabled("%s, %d %s", ctx.t("Histogram"), kWeightBins, ctx.t("bins"));
    const float width = std::clamp(ImGui::GetContentRegionAvail().x - ctx.em, 12.0f * ctx.em, 30.0f * ctx.em);
    histogram(ctx, s, ImVec2(width, 5.5f * ctx.em));
    ImGui::EndGroup();
}

}  // namespace attnlab::gui
