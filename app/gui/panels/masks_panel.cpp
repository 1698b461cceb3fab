// The masks view: the padding masks (S,) and (T,), the look-ahead mask (T, T), and the masks
// attention uses, encoder self (S, S), decoder self (T, T) and cross (T, S), whose cells the
// user can flip; edited cells carry a dot. 1 = the query (row) may attend to the key (column).
#include "panels/mask_flow.h"
#include "panels/panel_context.h"
#include "panels/step_explanation.h"
#include "panels/tour_target.h"

#include "forward/step_path.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

struct MaskInfo {
    StepId id;
    const char* title;
    const char* shape;
    bool padding() const { return id.kind == StepKind::padding_mask; }     // one row: keep_j
    bool editable() const { return id.kind == StepKind::attention_mask; }  // the masks attention reads
};

const MaskInfo kIngredients[] = {
    {StepId::of(StepKind::padding_mask, Stack::encoder), tr_noop("Source padding"), "(S)"},
    {StepId::of(StepKind::padding_mask, Stack::decoder), tr_noop("Target padding"), "(T)"},
    {StepId::of(StepKind::look_ahead_mask, Stack::decoder), tr_noop("Look-ahead"), "(T, T)"},
};
const MaskInfo kCombined[] = {
    {StepId::mask_of(AttentionUse::encoder_self), tr_noop("Encoder self-attention"), "(S, S)"},
    {StepId::mask_of(AttentionUse::decoder_self), tr_noop("Decoder self-attention"), "(T, T)"},
    {StepId::mask_of(AttentionUse::cross), tr_noop("Cross-attention"), "(T, S)"},
};

// The sequences a mask's rows (queries) and columns (keys) index; a padding mask's one row covers its keys.
struct MaskAxes {
    Sequence rows, keys;
};

MaskAxes axes_of(const PanelContext& ctx, const MaskInfo& m) {
    const StepRecord r = StepRecord::of(m.id, ctx.config());
    return {r.rows, r.keys.value_or(r.rows)};
}

const std::vector<std::string>& labels_of(const SequenceView& src, const SequenceView& tgt, Sequence s) {
    return s == Sequence::source ? src.labels : tgt.labels;
}

// A mask's cells and labels: the cell size, the plot's width with its labels (rotated ones may reach
// `kLabelRoom` em past the last column), as plot_matrix draws it.
constexpr float kLabelRoom = 6.0f;
struct Grid {
    float cell = 0.0f, max_width = 0.0f, width = 0.0f;
};

Grid grid_for(const PanelContext& ctx, const std::vector<std::string>& rows, const std::vector<std::string>& cols,
              float cell) {
    HeatmapLayout layout{cell, &rows, &cols};
    layout.max_width = heatmap_geometry(static_cast<int>(rows.size()), static_cast<int>(cols.size()), layout).grid.x +
                       static_cast<float>(cols.size()) * cell + kLabelRoom * ctx.em;
    return {cell, layout.max_width,
            heatmap_geometry(static_cast<int>(rows.size()), static_cast<int>(cols.size()), layout).size.x};
}

const MaskOverrides* overrides_of(const PanelContext& ctx, const MaskInfo& m) {
    if (!m.editable()) return nullptr;
    const auto& all = ctx.stepper().inputs().mask_overrides;
    auto it = all.find(m.id.use);
    return it == all.end() || it->second.empty() ? nullptr : &it->second;
}

float value_at(const PanelContext& ctx, const StepId& id, int row, int col) {
    const Tensor* t = ctx.stepper().output(id);
    if (!t) return 1.0f;
    const ConstMatMap m = t->matrix();
    return row < m.rows() && col < m.cols() ? m(row, col) : 1.0f;
}

// Why a blocked (or flipped) cell is what it is, from the ingredient masks; nullptr for a plain 1.
const char* cell_reason(const PanelContext& ctx, const MaskInfo& m, int row, int col, float v, bool edited) {
    if (edited) return ctx.t("You flipped this cell.");
    if (v != 0.0f) return nullptr;
    if (m.padding()) return ctx.t("This key is padding: hidden from every query.");
    const MaskAxes axes = axes_of(ctx, m);
    const Stack key_stack = axes.keys == Sequence::source ? Stack::encoder : Stack::decoder;
    if (value_at(ctx, StepId::of(StepKind::padding_mask, key_stack), 0, col) == 0.0f)
        return ctx.t("Blocked: the key is padding.");
    if (axes.rows == Sequence::target && axes.keys == Sequence::target && col > row)  // the decoder's own tokens
        return ctx.t("Blocked: the key comes after the query (the future).");
    return nullptr;
}

void cell_tooltip(const PanelContext& ctx, const MaskInfo& m, const Tensor& mask, const std::vector<std::string>& rows,
                  const std::vector<std::string>& cols, int row, int col, bool edited) {
    const float v = mask.matrix()(row, col);
    ImGui::BeginTooltip();
    if (m.padding())
        ImGui::Text("%s %d '%s'", ctx.t("key"), col, cols[static_cast<size_t>(col)].c_str());
    else
        ImGui::Text("%s %d '%s'  →  %s %d '%s'", ctx.t("query"), row, rows[static_cast<size_t>(row)].c_str(),
                    ctx.t("key"), col, cols[static_cast<size_t>(col)].c_str());
    ImGui::Text("%g: %s", v, v != 0.0f ? ctx.t("may attend") : ctx.t("blocked"));
    if (const char* reason = cell_reason(ctx, m, row, col, v, edited)) ImGui::TextDisabled("%s", reason);
    if (m.editable()) ImGui::TextDisabled("%s", ctx.t("Click to flip this cell."));
    step_explanation_section(ctx, m.id, {0, row, col});
    ImGui::EndTooltip();
}

void mark_edits(const MaskOverrides& edits, ImVec2 grid, float cell, int rows, int cols) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float r = std::max(2.5f, cell * 0.16f);
    for (const auto& [rc, allowed] : edits) {
        if (rc.first >= rows || rc.second >= cols) continue;
        const ImVec2 c(grid.x + (rc.second + 0.5f) * cell, grid.y + (rc.first + 0.5f) * cell);
        draw->AddCircleFilled(c, r, IM_COL32(255, 255, 255, 255));
        draw->AddCircle(c, r, IM_COL32(0, 0, 0, 255), 0, 1.5f);
    }
}

struct Block {
    const MaskInfo& info;
    const TraceEntry* entry;  // nullptr until the mask's step has run
    const std::vector<std::string>& rows;
    const std::vector<std::string>& cols;
    Grid grid;
};

// One mask: title, matrix with labels, edit dots, tooltip; a click flips the cell (last, as it recomputes the mask).
void draw_block(PanelContext& ctx, const Block& b) {
    ImGui::Text("%s  %s", ctx.t(b.info.title), b.info.shape);
    if (!b.entry) {
        text_not_run_yet(ctx);
        return;
    }
    const Tensor& mask = b.entry->value;  // (rows, cols); a padding mask is one row
    const ConstMatMap m = mask.matrix();
    const int R = static_cast<int>(m.rows()), K = static_cast<int>(m.cols());
    const MaskOverrides* edits = overrides_of(ctx, b.info);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    MatrixPlot plot{"masks/" + step_path(b.info.id),
                    mask.data.data(),
                    R,
                    K,
                    b.entry->version,
                    Colormap::sequential,
                    &b.rows,
                    &b.cols};
    plot.fixed_range = true;
    plot.cell = b.grid.cell;
    plot.max_width = b.grid.max_width;
    const HeatmapHit hit = plot_matrix(ctx, plot);
    const bool edited_cell = hit.row >= 0 && edits && edits->count({hit.row, hit.col});
    if (edits) mark_edits(*edits, hit.grid, b.grid.cell, R, K);
    if (b.info.editable() &&
        b.info.id.use == ctx.view.attention.family)  // the tour's mask to click, with its title and labels
        mark_tour_target(ctx, TourTaskKind::toggle_mask_cell, ImVec2(origin.x, origin.y - ImGui::GetFrameHeight()),
                         ImVec2(hit.grid.x + K * b.grid.cell, hit.grid.y + R * b.grid.cell));
    if (hit.row >= 0) cell_tooltip(ctx, b.info, mask, b.rows, b.cols, hit.row, hit.col, edited_cell);
    if (edits) {
        ImGui::PushID(b.info.title);
        if (ImGui::SmallButton(ctx.t("Reset mask"))) ctx.session.reset_mask(b.info.id.use);
        ImGui::PopID();
        ImGui::SameLine();
        ImGui::TextDisabled("%d %s", static_cast<int>(edits->size()), ctx.t("cells edited"));
    }
    if (hit.clicked && b.info.editable()) ctx.session.toggle_mask_cell(b.info.id.use, hit.row, hit.col);
}

// The masks of this model from `infos`, flowing left to right and wrapping when the next one does not fit;
// cells of at most max_cell em, and a matrix at most `height` em tall.
template <size_t N>
void draw_row(PanelContext& ctx, const MaskInfo (&infos)[N], const SequenceView& src, const SequenceView& tgt,
              float max_cell, float height) {
    const float avail = ImGui::GetContentRegionAvail().x, gap = 2.0f * ctx.em;
    const std::vector<std::string> keep = {ctx.t("keep")};
    FlowLayout flow(avail, gap);
    for (const MaskInfo& info : infos) {
        if (!ctx.stepper().find(info.id)) continue;
        const MaskAxes axes = axes_of(ctx, info);
        const std::vector<std::string>& cols = labels_of(src, tgt, axes.keys);
        const std::vector<std::string>& rows = info.padding() ? keep : labels_of(src, tgt, axes.rows);
        const float n_rows = static_cast<float>(rows.size()),
                    n_cols = static_cast<float>(std::max<size_t>(cols.size(), 1));
        const float cell =
            std::clamp(std::min((avail - 8.0f * ctx.em) / n_cols, height * ctx.em / n_rows), 2.0f, max_cell * ctx.em);
        Block b{info, ctx.stepper().entry(info.id), rows, cols, grid_for(ctx, rows, cols, cell)};
        const float colorbar =
            std::min(14.0f * ctx.em, std::max(n_cols * cell + ctx.em, 6.0f * ctx.em));  // as plot_matrix
        const float reset = overrides_of(ctx, info) ? ImGui::CalcTextSize(ctx.t("Reset mask")).x +
                                                          ImGui::CalcTextSize(ctx.t("cells edited")).x + 4.0f * ctx.em
                                                    : 0.0f;
        const float title = ImGui::CalcTextSize(ctx.t(info.title)).x + 4.0f * ctx.em;
        const float width = std::max({b.grid.width, colorbar, reset, title});
        flow.begin_block(width);
        draw_block(ctx, b);
        flow.end_block();
    }
    flow.finish();
}

}  // namespace

void draw_masks_panel(PanelContext& ctx) {
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x);  // ImGui's default edge lies under the scrollbar
    ImGui::TextUnformatted(
        ctx.t("1 = may attend, 0 = blocked. Rows are queries, columns are keys; padding masks "
              "block keys (columns) only. A white dot marks a cell you flipped."));
    const SequenceView src = ctx.session.source(), tgt = ctx.session.target();
    ImGui::Spacing();
    ImGui::TextUnformatted(ctx.t("Ingredients"));
    ImGui::Separator();
    draw_row(ctx, kIngredients, src, tgt, 1.3f, 10.0f);
    ImGui::Spacing();
    ImGui::TextUnformatted(ctx.t("Masks the attention uses: click a cell to flip it; the forward pass re-runs"));
    ImGui::Separator();
    draw_row(ctx, kCombined, src, tgt, 2.0f, 14.0f);
    ImGui::PopTextWrapPos();
}

}  // namespace attnlab::gui
