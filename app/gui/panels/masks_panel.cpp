// The masks view: the padding masks (S,) and (T,), the look-ahead mask (T, T), and the masks
// attention uses, encoder self (S, S), decoder self (T, T) and cross (T, S), whose cells the
// user can flip; edited cells carry a dot. 1 = the query (row) may attend to the key (column).
#include "panels/count_text.h"
#include "panels/mask_flow.h"
#include "panels/panel_context.h"
#include "panels/step_explanation.h"
#include "panels/tour_target.h"

#include "forward/step_path.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

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
// `kLabelRoom` em past the last column), and its size with them, as plot_matrix draws it.
constexpr float kLabelRoom = 6.0f;
struct Grid {
    float cell = 0.0f, max_width = 0.0f;
    ImVec2 size;
};

Grid grid_for(const PanelContext& ctx, const std::vector<std::string>& rows, const std::vector<std::string>& cols,
              float cell) {
    const int R = static_cast<int>(rows.size()), K = static_cast<int>(cols.size());
    HeatmapLayout layout{cell, &rows, &cols};
    layout.max_width = heatmap_geometry(R, K, layout).grid.x + static_cast<float>(K) * cell + kLabelRoom * ctx.em;
    return {cell, layout.max_width, heatmap_geometry(R, K, layout).size};
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
    ImVec2 size;  // what it takes in its row: title, labels and cells, colour bar, reset line
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
        ImGui::TextDisabled("%s", count_text(static_cast<long long>(edits->size()), tr_noop("1 cell edited"),
                                             tr_noop("%lld cells edited"), ctx.view.settings.korean)
                                      .c_str());
    }
    if (hit.clicked && b.info.editable()) ctx.session.toggle_mask_cell(b.info.id.use, hit.row, hit.col);
}

// One row of masks: the largest cells (max_cell em, and a matrix at most `height` em tall), times `scale`.
struct RowSize {
    float max_cell, height;
};

// The height a mask takes with its title, colour bar (a bar and its end values) and reset line, as draw_block
// draws it.
float block_height(const PanelContext& ctx, const MaskInfo& info, bool run, const Grid& grid) {
    const float line = ImGui::GetTextLineHeight(), spacing = ImGui::GetStyle().ItemSpacing.y;
    const float title = line + spacing;
    if (!run) return title + line + spacing;  // "not run yet"
    const float colorbar = 0.8f * line + spacing + line + spacing;
    const float reset = overrides_of(ctx, info) ? line + spacing : 0.0f;  // a small button: a line tall
    return title + grid.size.y + spacing + colorbar + reset;
}

// The masks of this model from `infos`, laid out: cells as large as `size` times `scale` allows and the
// width fits.
std::vector<Block> plan_row(const PanelContext& ctx, std::span<const MaskInfo> infos, const SequenceView& src,
                            const SequenceView& tgt, const std::vector<std::string>& keep, RowSize size, float scale) {
    const float avail = ImGui::GetContentRegionAvail().x;
    std::vector<Block> blocks;
    for (const MaskInfo& info : infos) {
        if (!ctx.stepper().find(info.id)) continue;
        const MaskAxes axes = axes_of(ctx, info);
        const std::vector<std::string>& cols = labels_of(src, tgt, axes.keys);
        const std::vector<std::string>& rows = info.padding() ? keep : labels_of(src, tgt, axes.rows);
        const float n_rows = static_cast<float>(rows.size()),
                    n_cols = static_cast<float>(std::max<size_t>(cols.size(), 1));
        // Whole pixels a cell: a fractional cell resamples the matrix's texture and drops some of its grid lines.
        const float cell =
            std::floor(std::clamp(std::min((avail - 8.0f * ctx.em) / n_cols, scale * size.height * ctx.em / n_rows),
                                  2.0f, scale * size.max_cell * ctx.em));
        const Grid grid = grid_for(ctx, rows, cols, cell);
        const TraceEntry* entry = ctx.stepper().entry(info.id);
        const float colorbar =
            std::min(14.0f * ctx.em, std::max(n_cols * cell + ctx.em, 6.0f * ctx.em));  // as plot_matrix
        const float reset = overrides_of(ctx, info) ? ImGui::CalcTextSize(ctx.t("Reset mask")).x +
                                                          ImGui::CalcTextSize(ctx.t("%lld cells edited")).x + 4.0f * ctx.em
                                                    : 0.0f;
        const float title = ImGui::CalcTextSize(ctx.t(info.title)).x + 4.0f * ctx.em;
        const float width = std::max({grid.size.x, colorbar, reset, title});
        blocks.push_back({info, entry, rows, cols, grid, ImVec2(width, block_height(ctx, info, entry, grid))});
    }
    return blocks;
}

constexpr float kMaskGap = 2.0f;  // em between masks in a row

float row_height(const PanelContext& ctx, const std::vector<Block>& blocks) {
    std::vector<ImVec2> sizes;
    for (const Block& b : blocks) sizes.push_back(b.size);
    return flow_height(sizes, ImGui::GetContentRegionAvail().x, kMaskGap * ctx.em);
}

// Masks left to right, wrapping when the next one does not fit.
void draw_row(PanelContext& ctx, const std::vector<Block>& blocks) {
    FlowLayout flow(ImGui::GetContentRegionAvail().x, kMaskGap * ctx.em);
    for (const Block& b : blocks) {
        flow.begin_block(b.size.x);
        draw_block(ctx, b);
        flow.end_block();
    }
    flow.finish();
}

// A heading over a row of masks, with a rule under it.
void heading(const char* text) {
    ImGui::TextUnformatted(text);
    ImGui::Separator();
}

// The height of the gap and heading between the two rows: ImGui::Spacing, the text, the separator.
float heading_height() {
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    return spacing + ImGui::GetTextLineHeight() + spacing + 1.0f + spacing;
}

constexpr RowSize kIngredientsSize{1.3f, 10.0f}, kCombinedSize{2.0f, 14.0f};
// How far cells shrink to fit, at most: projected, to a quarter (no one scrolls a class's screen); at a
// desk, to a half (a mouse scrolls, and smaller cells lose their labels).
float smallest_scale(const PanelContext& ctx) { return ctx.view.settings.classroom ? 0.25f : 0.5f; }

}  // namespace

// Both rows of masks, with their colour bars, fit the pane's height: their cells shrink together
// until they do. A pane they do not fit even at smallest_scale of their largest cells (a narrow one
// that wraps them onto more rows) shows them at their largest, and scrolls.
void draw_masks_panel(PanelContext& ctx) {
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x);  // ImGui's default edge lies under the scrollbar
    ImGui::TextUnformatted(
        ctx.t("1 = may attend, 0 = blocked. Rows are queries, columns are keys; padding masks "
              "block keys (columns) only. A white dot marks a cell you flipped."));
    const SequenceView src = ctx.session.source(), tgt = ctx.session.target();
    const std::vector<std::string> keep = {ctx.t("keep")};
    ImGui::Spacing();
    heading(ctx.t("Ingredients"));
    const auto plan = [&](float scale) {
        return std::pair(plan_row(ctx, kIngredients, src, tgt, keep, kIngredientsSize, scale),
                         plan_row(ctx, kCombined, src, tgt, keep, kCombinedSize, scale));
    };
    const float avail_h = ImGui::GetContentRegionAvail().y;
    const auto fits_pane = [&](float s) {
        const auto [ingredients, combined] = plan(s);
        return row_height(ctx, ingredients) + heading_height() + row_height(ctx, combined) <= avail_h;
    };
    // A pane too small for them even then: the largest cells, and it scrolls.
    const float scale = largest_fitting_scale(smallest_scale(ctx), 1.0f, fits_pane).value_or(1.0f);
    const auto [ingredients, combined] = plan(scale);
    draw_row(ctx, ingredients);
    ImGui::Spacing();
    mark_tour_section(ctx, TourTaskKind::toggle_mask_cell);  // the tour's mask: shown from this heading
    heading(ctx.t("Masks the attention uses: click a cell to flip it; the forward pass re-runs"));
    draw_row(ctx, combined);
    ImGui::PopTextWrapPos();
}

}  // namespace attnlab::gui
