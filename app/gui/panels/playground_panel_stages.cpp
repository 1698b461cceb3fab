// The hand calculation's tables: what the user types, then Q, K, V and the five stages
// QKᵀ → ÷√d_k → mask → softmax → ×V with every number, then the chosen query and key worked out.
#include "panels/mask_flow.h"
#include "panels/playground_panel.h"
#include "panels/playground_panel_cells.h"
#include "teach/hand_formulas.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

constexpr float kInputCellEm = 2.8f;  // a typed cell, widened to its widest number
constexpr float kValueCellEm = 2.6f;  // a result cell, widened to its widest number
// Each with a number; the words are translated, the symbols stay.
constexpr const char* kStageTitles[] = {"1  QKᵀ", "2  ÷ √d_k", tr_noop("3  Mask"), tr_noop("4  Softmax"), "5  × V"};

std::string vector_text(const Eigen::Ref<const RowVec>& v) {
    std::string s = "[";
    for (Eigen::Index i = 0; i < v.size(); ++i) s += (i ? ", " : "") + hand_number(v(i));
    return s + "]";
}

// A titled block of the flow, at least as wide as its title and note.
template <class Body>
void block(FlowLayout& flow, float width, const char* title, const std::string& note, Body&& body) {
    const float em = ImGui::GetFontSize();
    const float title_w =
        ImGui::CalcTextSize(title).x + (note.empty() ? 0.0f : ImGui::CalcTextSize(note.c_str()).x + 0.6f * em);
    flow.begin_block(std::max(width, title_w));
    ImGui::TextUnformatted(title);
    if (!note.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", note.c_str());
    }
    body();
    flow.end_block();
}

std::string size_note(const Mat& m) { return "(" + std::to_string(m.rows()) + "×" + std::to_string(m.cols()) + ")"; }

// The typed matrices and the mask; any edit leaves the preset.
void draw_typed(PanelContext& ctx, FlowLayout& flow) {
    PlaygroundState& p = ctx.view.playground;
    HandSpec& s = p.spec;
    const int T = s.n_tokens(), C = s.d_model(), D = s.d_k();
    const bool projected = s.input == HandInput::projected;
    const float cell = projected ? cell_width({&s.x, &s.w_q, &s.w_k, &s.w_v}, kInputCellEm)
                                 : cell_width({&s.q, &s.k, &s.v}, kInputCellEm);
    const auto tokens = indexed_labels("x", T), inputs = number_labels(C), dims = number_labels(D);
    const auto queries = indexed_labels("q", T), keys = indexed_labels("k", T), values = indexed_labels("v", T);
    bool edited = false;
    auto typed = [&](const char* title, Mat& m, const std::vector<std::string>& rows,
                     const std::vector<std::string>& cols) {
        const CellGrid grid{title, &rows, &cols, cell};
        block(flow, grid_width(grid, static_cast<int>(m.cols())), title, size_note(m),
              [&] { edited |= input_table(grid, m); });
    };
    if (projected) {
        typed("X", s.x, tokens, inputs);
        typed("W_Q", s.w_q, inputs, dims);
        typed("W_K", s.w_k, inputs, dims);
        typed("W_V", s.w_v, inputs, dims);
    } else {
        typed("Q", s.q, queries, dims);
        typed("K", s.k, keys, dims);
        typed("V", s.v, values, dims);
    }
    const CellGrid mask_grid{"mask", &queries, &keys, kValueCellEm * ctx.em, p.focus_row, p.focus_col};
    const float mask_w =
        std::max(grid_width(mask_grid, T),
                 ImGui::CalcTextSize(ctx.t("All 1")).x + ImGui::CalcTextSize(ctx.t("Look-ahead")).x + 3.0f * ctx.em);
    block(flow, mask_w, ctx.t("Mask"), ctx.t("click to flip"), [&] {
        edited |= mask_table(mask_grid, s.mask);
        if (ImGui::SmallButton(ctx.t("All 1"))) s.mask = all_allowed_mask(T), edited = true;
        ImGui::SameLine();
        if (ImGui::SmallButton(ctx.t("Look-ahead"))) s.mask = causal_mask(T), edited = true;
    });
    if (edited) p.preset = PlaygroundPreset::none;
}

// A result table: its formula in a tooltip on hover; a click picks the focus through `pick`.
template <class Formula, class Pick>
void result_block(FlowLayout& flow, const char* title, const std::string& note, const Mat& m, CellScale scale,
                  const CellGrid& grid, Formula&& formula, Pick&& pick) {
    block(flow, grid_width(grid, static_cast<int>(m.cols())), title, note, [&] {
        const CellHit hit = value_table(grid, m, scale);
        if (hit.row < 0) return;
        ImGui::SetTooltip("%s", formula(hit.row, hit.col).c_str());
        if (hit.clicked) pick(hit.row, hit.col);
    });
}

void draw_results(PanelContext& ctx, const HandAttention& a, FlowLayout& flow) {
    PlaygroundState& p = ctx.view.playground;
    const HandSpec& s = p.spec;
    const int T = s.n_tokens(), D = s.d_k();
    const float cell = cell_width({&a.q, &a.k, &a.v, &a.scores, &a.scaled, &a.weights, &a.context}, kValueCellEm);
    const auto queries = indexed_labels("q", T), keys = indexed_labels("k", T), values = indexed_labels("v", T);
    const auto outputs = indexed_labels("z", T), dims = number_labels(D);
    auto focus_cell = [&](int r, int c) { p.focus_row = r, p.focus_col = c; };
    if (s.input == HandInput::projected) {
        const char* names[] = {"Q = X·W_Q", "K = X·W_K", "V = X·W_V"};
        const Mat* mats[] = {&a.q, &a.k, &a.v};
        const std::vector<std::string>* rows[] = {&queries, &keys, &values};
        const int focus[] = {p.focus_row, p.focus_col, -1};
        for (int i = 0; i < 3; ++i) {
            const char which = "QKV"[i];
            result_block(
                flow, names[i], "", *mats[i], CellScale::signed_values,
                CellGrid{names[i], rows[i], &dims, cell, focus[i]},
                [&](int r, int c) { return projection_formula(s, which, r, c); },
                [&](int r, int) {
                    if (i == 0)
                        p.focus_row = r;
                    else
                        p.focus_col = r;
                });
        }
    }
    const CellGrid stage{"", &queries, &keys, cell, p.focus_row, p.focus_col};
    auto grid = [&](const char* id) {
        CellGrid g = stage;
        g.id = id;
        return g;
    };
    const std::string scale_note =
        s.scale ? "÷ √" + std::to_string(D) + " = ÷ " + hand_number(std::sqrt(D)) : ctx.t("scaling off");
    result_block(
        flow, kStageTitles[0], ctx.t("scores"), a.scores, CellScale::signed_values, grid("scores"),
        [&](int r, int c) { return score_formula(a, r, c); }, focus_cell);
    result_block(
        flow, ctx.t(kStageTitles[1]), scale_note, a.scaled, CellScale::signed_values, grid("scaled"),
        [&](int r, int c) { return scaled_formula(s, a, r, c); }, focus_cell);
    result_block(
        flow, ctx.t(kStageTitles[2]), ctx.t("blocked → −∞"), a.masked, CellScale::signed_values, grid("masked"),
        [&](int r, int c) { return masked_formula(s, a, r, c); }, focus_cell);
    result_block(
        flow, ctx.t(kStageTitles[3]), ctx.t("each row sums to 1"), a.weights, CellScale::probabilities, grid("weights"),
        [&](int r, int c) { return weight_formula(a, r, c); }, focus_cell);
    result_block(
        flow, ctx.t(kStageTitles[4]), ctx.t("output z = weights·V"), a.context, CellScale::signed_values,
        CellGrid{"context", &outputs, &dims, cell, p.focus_row}, [&](int r, int c) { return context_formula(a, r, c); },
        [&](int r, int) { p.focus_row = r; });
}

// One stage of the worked-out table: its title, then its formula lines.
void worked_row(const char* title, const std::vector<std::string>& lines) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(title);
    ImGui::TableNextColumn();
    for (const auto& l : lines) ImGui::TextUnformatted(l.c_str());
}

void draw_worked_out(PanelContext& ctx, const HandAttention& a) {
    const PlaygroundState& p = ctx.view.playground;
    const HandSpec& s = p.spec;
    const int i = p.focus_row, j = p.focus_col;
    const std::string qi = "q" + subscript(i + 1), kj = "k" + subscript(j + 1), wi = "w" + subscript(i + 1);
    ImGui::Text("%s %s, %s", ctx.t("Worked out for"), qi.c_str(), kj.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%s", ctx.t("(click any result cell to pick another query and key)"));
    if (!ImGui::BeginTable("worked", 2, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) return;
    const bool projected = s.input == HandInput::projected;
    worked_row("q, k", {qi + (projected ? " = x" + subscript(i + 1) + "·W_Q" : "") + " = " + vector_text(a.q.row(i)) +
                        "      " + kj + (projected ? " = x" + subscript(j + 1) + "·W_K" : "") + " = " +
                        vector_text(a.k.row(j))});
    worked_row(kStageTitles[0], {score_formula(a, i, j)});
    worked_row(ctx.t(kStageTitles[1]),
               {scaled_formula(s, a, i, j) + (s.scale ? "" : "  (" + std::string(ctx.t("scaling off")) + ")")});
    worked_row(ctx.t(kStageTitles[2]), {masked_formula(s, a, i, j)});
    const bool no_key =
        std::find(a.fully_masked_rows.begin(), a.fully_masked_rows.end(), i) != a.fully_masked_rows.end();
    worked_row(ctx.t(kStageTitles[3]),
               {weight_formula(a, i, j),
                wi + " = " + vector_text(a.weights.row(i)) + "   Σ = " + hand_number(a.weights.row(i).sum()) +
                    (no_key ? "   " + std::string(ctx.t("(every key blocked: all weights 0, never NaN)")) : "")});
    std::vector<std::string> outputs;
    for (int d = 0; d < s.d_k(); ++d) outputs.push_back(context_formula(a, i, d));
    worked_row(ctx.t(kStageTitles[4]), outputs);
    ImGui::EndTable();
}

}  // namespace

void draw_hand_tables(PanelContext& ctx) {
    PlaygroundState& p = ctx.view.playground;
    const int T = p.spec.n_tokens();
    p.focus_row = std::clamp(p.focus_row, 0, T - 1);
    p.focus_col = std::clamp(p.focus_col, 0, T - 1);
    const float gap = 1.6f * ctx.em;
    if (p.show_inputs) {
        FlowLayout typed(ImGui::GetContentRegionAvail().x, gap);
        draw_typed(ctx, typed);
        typed.finish();
        ImGui::Spacing();
        ImGui::Separator();
    }
    const auto a = hand_attention(p.spec);
    if (!a) {
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "%s", a.error().message.c_str());
        return;
    }
    FlowLayout stages(ImGui::GetContentRegionAvail().x, gap);
    draw_results(ctx, *a, stages);
    stages.finish();
    ImGui::Spacing();
    ImGui::Separator();
    draw_worked_out(ctx, *a);
}

}  // namespace attnlab::gui
