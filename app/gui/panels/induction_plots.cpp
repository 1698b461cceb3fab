// Copy losses and head detector scores over an induction run, from its InductionRecord.
#include "panels/induction_plots.h"

#include "panels/line_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace attnlab::gui {

namespace {

// Bright on the dark theme and apart for the colour-blind (blue / orange; blue / orange / green).
constexpr ImU32 kFirstCopyColor = IM_COL32(96, 156, 255, 255);
constexpr ImU32 kSecondCopyColor = IM_COL32(255, 150, 60, 255);
constexpr ImU32 kInductionColor = IM_COL32(255, 150, 60, 255);
constexpr ImU32 kPreviousColor = IM_COL32(96, 156, 255, 255);
constexpr ImU32 kDuplicateColor = IM_COL32(90, 200, 120, 255);

// The head whose lines are drawn: the best induction head until a cell is clicked. Panel state, not saved.
struct FollowedHead {
    bool chosen = false;
    ScoredHead head;
};

float x_max(const PanelContext& ctx, const TrainProgress& p) {
    return static_cast<float>(std::max(p.run ? p.total : ctx.view.train.steps, 1));
}

// Black through a deep blue to a bright yellow: 0 dark, 1 bright, readable on a projector.
ImU32 score_color(float s) {
    s = std::clamp(s, 0.0f, 1.0f);
    const float r = s < 0.5f ? 40.0f + 60.0f * s : 70.0f + 370.0f * (s - 0.5f);
    const float g = s < 0.5f ? 40.0f + 120.0f * s : 100.0f + 300.0f * (s - 0.5f);
    const float b = s < 0.5f ? 70.0f + 260.0f * s : 200.0f - 300.0f * (s - 0.5f);
    return IM_COL32(static_cast<int>(std::min(r, 255.0f)), static_cast<int>(std::min(g, 255.0f)),
                    static_cast<int>(std::clamp(b, 0.0f, 255.0f)), 255);
}

void header(const PanelContext& ctx, const char* title, const char* note, float width) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(title);
    const float need = ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(note).x;
    if (ImGui::GetItemRectSize().x + need <= width) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", note);
    } else if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", note);
    }
    (void)ctx;
}

// The layer × head grid of the induction scores at `point` (-1: the latest), each cell with its value; a click on a
// cell follows that head.
void score_grid(PanelContext& ctx, const InductionRecord& r, int point, FollowedHead& followed, const ScoredHead& shown,
                ImVec2 size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float em = ctx.em;
    // The left column holds the layer numbers and, in its top corner, "head" (beside the head numbers: at the grid's
    // right it ran into the next plot's "score").
    const float head_w = ImGui::CalcTextSize(ctx.t("head")).x;
    const float label_w = std::max(ImGui::CalcTextSize(ctx.t("layer")).x, head_w) + 1.6f * em, label_h = 1.4f * em;
    const int L = r.n_layers(), H = r.n_heads();
    ImGui::Dummy(size);
    if (r.empty() || L == 0 || H == 0) {
        const char* note = ctx.t("Press Start to train.");
        const ImVec2 ts = ImGui::CalcTextSize(note);
        dl->AddText(ImVec2(origin.x + 0.5f * (size.x - ts.x), origin.y + 0.5f * (size.y - ts.y)),
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), note);
        return;
    }
    const size_t at = point < 0 ? r.size() - 1 : std::min(static_cast<size_t>(point), r.size() - 1);
    const float cell = std::max(1.0f, std::min((size.x - label_w) / H, (size.y - 2.0f * label_h) / L));
    const ImVec2 grid(origin.x + label_w, origin.y + label_h);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool clicked = ImGui::IsItemClicked();
    char buf[32];
    for (int h = 0; h < H; ++h) {  // head numbers above the columns
        std::snprintf(buf, sizeof buf, "%d", h);
        const float w = ImGui::CalcTextSize(buf).x;
        dl->AddText(ImVec2(grid.x + (h + 0.5f) * cell - 0.5f * w, origin.y), text, buf);
    }
    for (int l = 0; l < L; ++l) {
        std::snprintf(buf, sizeof buf, "%d", l);
        const float w = ImGui::CalcTextSize(buf).x;
        dl->AddText(ImVec2(grid.x - w - 0.4f * em, grid.y + (l + 0.5f) * cell - 0.5f * em), text, buf);
        for (int h = 0; h < H; ++h) {
            const float s = r.score(at, l, h, HeadScoreKind::induction);
            const ImVec2 a(grid.x + h * cell, grid.y + l * cell), b(a.x + cell - 1.0f, a.y + cell - 1.0f);
            dl->AddRectFilled(a, b, score_color(s));
            if (cell >= 2.2f * em) {
                std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(s));
                const ImVec2 ts = ImGui::CalcTextSize(buf);
                dl->AddText(ImVec2(a.x + 0.5f * (cell - ts.x), a.y + 0.5f * (cell - ts.y)),
                            s > 0.55f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255), buf);
            }
            if (shown.layer == l && shown.head == h)
                dl->AddRect(ImVec2(a.x - 1.0f, a.y - 1.0f), ImVec2(b.x + 1.0f, b.y + 1.0f),
                            IM_COL32(255, 255, 255, 255), 0.0f, 0, 3.0f);
            const bool over = mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y;
            if (over && ImGui::IsItemHovered()) {
                ImGui::SetTooltip(ctx.t("layer %d, head %d at step %d\ninduction %.2f\nprevious token %.2f\nduplicate "
                                        "token %.2f\nClick to plot this head."),
                                  l, h, r.step(at), static_cast<double>(s),
                                  static_cast<double>(r.score(at, l, h, HeadScoreKind::previous_token)),
                                  static_cast<double>(r.score(at, l, h, HeadScoreKind::duplicate_token)));
                if (clicked) followed = {true, {l, h}};
            }
        }
    }
    // Axis names: "head" left of the head numbers, "layer" below the layer numbers.
    dl->AddText(ImVec2(grid.x - head_w - 0.4f * em, origin.y), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                ctx.t("head"));
    dl->AddText(ImVec2(origin.x, grid.y + L * cell + 0.2f * em), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                ctx.t("layer"));
}

}  // namespace

void draw_copy_losses(PanelContext& ctx, const TrainProgress& p, ImVec2 size) {
    draw_copy_losses(ctx, p.induction, {x_max(ctx, p), -1}, size);
}

void draw_head_scores(PanelContext& ctx, const TrainProgress& p, ImVec2 size) {
    draw_head_scores(ctx, p.induction, {x_max(ctx, p), -1}, size);
}

void draw_copy_losses(PanelContext& ctx, const InductionRecord& r, const InductionPlotFocus& focus, ImVec2 size) {
    ImGui::BeginGroup();
    const float y0 = ImGui::GetCursorPosY();
    header(ctx, ctx.t("Loss on each copy"), ctx.t("cross-entropy per token, on a fixed batch"), size.x);
    PlotSeries first{ctx.t("first copy"), kFirstCopyColor, {}, 2.0f};
    PlotSeries second{ctx.t("second copy"), kSecondCopyColor, {}, 2.0f};
    for (size_t i = 0; i < r.size(); ++i) {
        const float x = static_cast<float>(r.step(i));
        first.points.emplace_back(x, r.first_copy_loss(i));
        second.points.emplace_back(x, r.second_copy_loss(i));
    }
    PlotAxes axes;
    axes.x_label = ctx.t("step");
    axes.y_label = ctx.t("loss");
    axes.x_max = focus.x_max;
    if (focus.point >= 0 && static_cast<size_t>(focus.point) < r.size())
        axes.marker_x = static_cast<float>(r.step(static_cast<size_t>(focus.point)));
    axes.fixed_y = true;
    axes.y_min = 0.0f;
    float top = 1.0f;
    for (size_t i = 0; i < r.size(); ++i) top = std::max({top, r.first_copy_loss(i), r.second_copy_loss(i)});
    axes.y_max = std::ceil(top);
    axes.empty_note = ctx.t("Press Start to train.");
    line_plot("##copy_losses", ImVec2(size.x, std::max(4.0f * ctx.em, size.y - (ImGui::GetCursorPosY() - y0))), axes,
              {first, second});
    ImGui::EndGroup();
}

void draw_head_scores(PanelContext& ctx, const InductionRecord& r, const InductionPlotFocus& focus, ImVec2 size) {
    FollowedHead& followed = ctx.caches.get<FollowedHead>();
    if (followed.chosen && (followed.head.layer >= r.n_layers() || followed.head.head >= r.n_heads())) followed = {};
    const bool marked = focus.point >= 0 && static_cast<size_t>(focus.point) < r.size();
    const size_t point = marked ? static_cast<size_t>(focus.point) : r.size() - 1;
    const ScoredHead shown =
        followed.chosen || r.empty() ? followed.head : best_head(r, point, HeadScoreKind::induction);
    const float em = ctx.em, spacing = ImGui::GetStyle().ItemSpacing.x;
    const float grid_w = std::clamp(std::floor(0.34f * size.x), 10.0f * em, 18.0f * em);
    const float lines_w = size.x - grid_w - spacing;
    const float header_h = ImGui::GetFrameHeightWithSpacing();

    ImGui::BeginGroup();
    char at_step[64];
    if (marked) std::snprintf(at_step, sizeof at_step, ctx.t("at step %d"), r.step(point));
    header(ctx, ctx.t("Induction score by head"), marked ? at_step : ctx.t("latest"), grid_w);
    ImGui::PushID("grid");
    score_grid(ctx, r, marked ? static_cast<int>(point) : -1, followed, shown,
               ImVec2(grid_w, std::max(4.0f * em, size.y - header_h)));
    ImGui::PopID();
    ImGui::EndGroup();
    ImGui::SameLine(0.0f, spacing);

    ImGui::BeginGroup();
    char title[128];
    std::snprintf(title, sizeof title, ctx.t("Scores of layer %d, head %d"), shown.layer, shown.head);
    header(ctx, title,
           followed.chosen ? ctx.t("(clicked)") : ctx.t("(the best induction head; click a cell for another)"),
           lines_w);
    PlotSeries induction{ctx.t("induction"), kInductionColor, {}, 2.5f};
    PlotSeries previous{ctx.t("previous token"), kPreviousColor, {}, 2.0f};
    PlotSeries duplicate{ctx.t("duplicate token"), kDuplicateColor, {}, 2.0f};
    for (size_t i = 0; i < r.size(); ++i) {
        const float x = static_cast<float>(r.step(i));
        induction.points.emplace_back(x, r.score(i, shown.layer, shown.head, HeadScoreKind::induction));
        previous.points.emplace_back(x, r.score(i, shown.layer, shown.head, HeadScoreKind::previous_token));
        duplicate.points.emplace_back(x, r.score(i, shown.layer, shown.head, HeadScoreKind::duplicate_token));
    }
    PlotAxes axes;
    axes.x_label = ctx.t("step");
    axes.y_label = ctx.t("score");
    axes.x_max = focus.x_max;
    if (marked) axes.marker_x = static_cast<float>(r.step(point));
    axes.fixed_y = true;
    axes.y_min = 0.0f;
    axes.y_max = 1.0f;
    axes.empty_note = ctx.t("Press Start to train.");
    line_plot("##head_scores", ImVec2(lines_w, std::max(4.0f * em, size.y - header_h)), axes,
              {induction, previous, duplicate});
    ImGui::EndGroup();
}

}  // namespace attnlab::gui
