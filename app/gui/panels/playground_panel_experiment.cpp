// The "why √d_k" experiment: random q and k for d_k = 2 … 512, the variance of q·k with and
// without ÷√d_k, and the mean largest softmax weight of a row of n scores (softmax saturation).
#include "panels/line_plot.h"
#include "panels/playground_panel.h"
#include "panels/table_cells.h"
#include "panels/tour_target.h"
#include "panels/word_wrap.h"
#include "teach/hand_formulas.h"
#include "teach/scaling_experiment.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

constexpr ImU32 kUnscaledColor = IM_COL32(255, 150, 60, 255);
constexpr ImU32 kScaledColor = IM_COL32(96, 156, 255, 255);
constexpr ImU32 kReferenceColor = IM_COL32(150, 150, 150, 200);

// Derived data: the last run and what it was run with, so a frame costs nothing until a setting changes.
struct ScalingCache {
    bool ready = false;
    ScalingExperimentSpec spec;
    std::vector<ScalingPoint> points;
    std::string error;
};

const ScalingCache& experiment_results(PanelContext& ctx) {
    const PlaygroundState& p = ctx.view.playground;
    ScalingExperimentSpec spec;
    spec.n_keys = p.experiment_keys;
    spec.seed = static_cast<uint64_t>(static_cast<uint32_t>(p.experiment_seed));
    ScalingCache& c = ctx.caches.get<ScalingCache>();
    if (c.ready && c.spec == spec) return c;
    auto points = scaling_experiment(spec);
    c.ready = true;
    c.spec = spec;
    c.points = points ? *points : std::vector<ScalingPoint>{};
    c.error = points ? "" : points.error().message;
    return c;
}

std::string format(const char* f, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

void draw_controls(PanelContext& ctx) {
    PlaygroundState& p = ctx.view.playground;
    if (value_slider_int(ctx.t("keys per row n"), "##keys", &p.experiment_keys, 2, 64, "%d", 7.0f * ctx.em))
        p.experiment_keys = std::clamp(p.experiment_keys, 2, 64);
    mark_tour_target(ctx, TourTaskKind::change_experiment_keys);
    const char* seed = ctx.t("Seed");
    const char* new_draw = ctx.t("New draw");
    const float seed_w = 6.5f * ctx.em, spacing = ImGui::GetStyle().ItemSpacing.x;
    same_line_if_fits(ImGui::CalcTextSize(seed).x + spacing + seed_w + spacing + button_width_for(new_draw),
                      1.5f * ctx.em);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(seed);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(seed_w);
    ImGui::InputInt("##seed", &p.experiment_seed);
    ImGui::SameLine();
    if (ImGui::Button(new_draw)) ++p.experiment_seed;
    const ScalingExperimentSpec defaults;
    char note[128];
    std::snprintf(note, sizeof note, ctx.t("%d pairs (q, k) and %d rows per d_k"), defaults.n_pairs, defaults.n_rows);
    ImGui::SameLine(0.0f, 1.5f * ctx.em);
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(note).x) ImGui::NewLine();  // whole, not a word a line
    ImGui::TextDisabled("%s", note);
}

void draw_plots(PanelContext& ctx, const std::vector<ScalingPoint>& points, float height) {
    const int n = ctx.view.playground.experiment_keys;
    // Measured series with a dot per d_k; the references (what theory says) thinner, without dots.
    auto series = [](const char* label, ImU32 color, bool measured) {
        PlotSeries s;
        s.label = label;
        s.color = color;
        s.dots = measured;
        s.thickness = measured ? 2.0f : 1.5f;
        return s;
    };
    PlotSeries var_unscaled = series(ctx.t("q·k, not scaled"), kUnscaledColor, true);
    PlotSeries var_scaled = series(ctx.t("q·k / √d_k"), kScaledColor, true);
    PlotSeries var_expected = series(ctx.t("d_k: the expected variance"), kReferenceColor, false);
    PlotSeries max_unscaled = series(ctx.t("not scaled"), kUnscaledColor, true);
    PlotSeries max_scaled = series(ctx.t("÷ √d_k"), kScaledColor, true);
    PlotSeries max_uniform = series(ctx.t("1/n: every weight equal"), kReferenceColor, false);
    for (const ScalingPoint& pt : points) {
        const float x = std::log2(static_cast<float>(pt.d_k));
        var_unscaled.points.emplace_back(x, static_cast<float>(pt.variance_unscaled));
        var_scaled.points.emplace_back(x, static_cast<float>(pt.variance_scaled));
        var_expected.points.emplace_back(x, static_cast<float>(pt.d_k));
        max_unscaled.points.emplace_back(x, static_cast<float>(pt.max_weight_unscaled));
        max_scaled.points.emplace_back(x, static_cast<float>(pt.max_weight_scaled));
        max_uniform.points.emplace_back(x, 1.0f / static_cast<float>(n));
    }
    PlotAxes axes;
    axes.x_label = "d_k";
    axes.x_log2 = true;
    axes.x_min = points.empty() ? 1.0f : std::log2(static_cast<float>(points.front().d_k));
    axes.x_max = points.empty() ? 9.0f : std::log2(static_cast<float>(points.back().d_k));
    const float gap = 1.5f * ctx.em, width = std::floor((ImGui::GetContentRegionAvail().x - gap) * 0.5f);
    // The titles above the plots, each wrapped to its plot's width; the plots below them, side by side.
    char largest_title[160];
    std::snprintf(largest_title, sizeof largest_title, ctx.t("largest softmax weight of a row of %d scores (mean)"), n);
    const char* titles[2] = {ctx.t("variance of the score (log scale)"), largest_title};
    const float x0 = ImGui::GetCursorPosX(), y0 = ImGui::GetCursorPosY();
    for (int i = 0; i < 2; ++i) {
        if (i > 0) ImGui::SameLine(x0 + width + gap);  // above its plot, however short the first title
        ImGui::BeginGroup();
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
        ImGui::TextDisabled("%s", titles[i]);
        ImGui::PopTextWrapPos();
        ImGui::EndGroup();
    }
    const float plot_h = std::max(6.0f * ctx.em, height - (ImGui::GetCursorPosY() - y0));
    PlotAxes variance = axes;
    variance.log_y = true;
    line_plot("variance", ImVec2(width, plot_h), variance, {var_expected, var_unscaled, var_scaled});
    ImGui::SameLine(0.0f, gap);
    PlotAxes largest = axes;
    largest.fixed_y = true;
    largest.y_min = 0.0f, largest.y_max = 1.0f;
    line_plot("largest", ImVec2(width, plot_h), largest, {max_uniform, max_unscaled, max_scaled});
}

// The table of every d_k's numbers, column by column: each column as wide as its widest number or its header's
// widest word (headers wrap at their spaces), so no number is ever cut; a table wider than the view scrolls it
// sideways.
struct PointsTable {
    std::array<const char*, 7> headers{};
    std::array<std::vector<std::string>, 7> cells;  // [column][row]
    std::array<float, 7> widths{};                  // each column's content, pixels
    float width = 0.0f, height = 0.0f;              // the whole table's, borders and padding included
};

PointsTable points_table(const PanelContext& ctx, const std::vector<ScalingPoint>& points) {
    PointsTable t;
    t.headers = {"d_k",
                 "Var(q·k)",
                 "Var(q·k/√d_k)",
                 ctx.t("largest weight, not scaled"),
                 ctx.t("largest weight, ÷ √d_k"),
                 ctx.t("||∂L/∂s||, not scaled"),
                 ctx.t("||∂L/∂s||, ÷ √d_k")};
    for (const ScalingPoint& pt : points) {
        const std::string row[7] = {std::to_string(pt.d_k),
                                    format("%.2f", pt.variance_unscaled),
                                    format("%.3f", pt.variance_scaled),
                                    format("%.3f", pt.max_weight_unscaled),
                                    format("%.3f", pt.max_weight_scaled),
                                    format("%.3f", pt.score_gradient_unscaled),
                                    format("%.3f", pt.score_gradient_scaled)};
        for (size_t c = 0; c < 7; ++c) t.cells[c].push_back(row[c]);
    }
    const auto measure = [](std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; };
    const ImGuiStyle& style = ImGui::GetStyle();
    float header_h = 0.0f;
    for (size_t c = 0; c < 7; ++c) {
        t.widths[c] = std::ceil(table_column_width(t.headers[c], t.cells[c], measure));
        t.width += t.widths[c] + 2.0f * style.CellPadding.x + 1.0f;  // and its border
        header_h =
            std::max(header_h, ImGui::CalcTextSize(wrap_at_spaces(t.headers[c], t.widths[c], measure).c_str()).y);
    }
    t.width += 1.0f;  // the outer border's other side
    const float row_h = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y + 1.0f;
    t.height = header_h + 2.0f * style.CellPadding.y + 1.0f + static_cast<float>(points.size()) * row_h;
    return t;
}

void draw_table(PanelContext& ctx, const PointsTable& t) {
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("points", 7, flags, ImVec2(t.width, 0.0f))) return;
    for (size_t c = 0; c < 7; ++c) ImGui::TableSetupColumn(t.headers[c], ImGuiTableColumnFlags_WidthFixed, t.widths[c]);
    table_wrapped_headers(ctx);
    for (size_t r = 0; r < t.cells[0].size(); ++r) {
        ImGui::TableNextRow();
        for (size_t c = 0; c < 7; ++c) table_cell_text(ctx, t.cells[c][r].c_str());
    }
    ImGui::EndTable();
}

// What the numbers say, with the largest d_k's numbers in it.
std::string takeaway(const PanelContext& ctx, const std::vector<ScalingPoint>& points) {
    if (points.empty()) return "";
    const ScalingPoint& last = points.back();
    char text[512];
    std::snprintf(
        text, sizeof text,
        ctx.t("At d_k = %d the unscaled scores have variance %s and the largest weight averages %s: the softmax "
              "is nearly one-hot, and its gradient nearly zero, so learning stalls. Divided by √d_k, the variance "
              "is %s and the largest weight %s, much as at d_k = %d."),
        last.d_k, format("%.1f", last.variance_unscaled).c_str(), format("%.2f", last.max_weight_unscaled).c_str(),
        format("%.2f", last.variance_scaled).c_str(), format("%.2f", last.max_weight_scaled).c_str(),
        points.front().d_k);
    char gradient[320];
    std::snprintf(gradient, sizeof gradient,
                  ctx.t("Measured through the softmax's backward, a random gradient on the weights reaches the scores "
                        "with norm %s unscaled and %s scaled at d_k = %d (%s and %s at d_k = %d)."),
                  format("%.3f", last.score_gradient_unscaled).c_str(),
                  format("%.3f", last.score_gradient_scaled).c_str(), last.d_k,
                  format("%.3f", points.front().score_gradient_unscaled).c_str(),
                  format("%.3f", points.front().score_gradient_scaled).c_str(), points.front().d_k);
    return std::string(text) + " " + gradient;
}

}  // namespace

void draw_scaling_experiment(PanelContext& ctx) {
    explanation(ctx, ctx.t("Draw q and k with d_k random entries each, of mean 0 and variance 1. Then q·k adds up d_k "
                           "products of variance 1, so its variance is d_k: the larger d_k, the wider the scores "
                           "spread, and softmax turns a wide spread into one weight near 1 and the rest near 0. "
                           "Dividing by √d_k brings the variance back to 1 for every d_k (paper §3.2.1)."));
    draw_controls(ctx);
    const ScalingCache& c = experiment_results(ctx);
    if (!c.error.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "%s", c.error.c_str());
        return;
    }
    // The plots take the height the conclusion and the table leave, and at least 13 em: their titles,
    // the legends above the curves and the curves themselves.
    const ImGuiStyle& style = ImGui::GetStyle();
    // Wrapped at spaces only: ImGui's wrapping would break "0.95" after its point.
    const std::string conclusion =
        wrap_at_spaces(takeaway(ctx, c.points), ImGui::GetContentRegionAvail().x,
                       [](std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; });
    const float conclusion_h = ImGui::CalcTextSize(conclusion.c_str()).y;
    const PointsTable table = points_table(ctx, c.points);
    const float plot_h = ImGui::GetContentRegionAvail().y - conclusion_h - table.height - 4.0f * style.ItemSpacing.y;
    ImGui::Spacing();
    draw_plots(ctx, c.points, std::clamp(plot_h, 13.0f * ctx.em, 24.0f * ctx.em));
    ImGui::TextUnformatted(conclusion.c_str());
    ImGui::Spacing();
    draw_table(ctx, table);
}

}  // namespace attnlab::gui
