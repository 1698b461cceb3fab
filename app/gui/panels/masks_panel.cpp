// The masks view: the padding masks (S,) and (T,), the look-ahead mask (T, T) (a band of W for a sliding window),
// and the masks attention uses, encoder self (S, S), decoder self (T, T) and cross (T, S), whose cells the
// user can flip; edited cells carry a dot. 1 = the query (row) may attend to the key (column). A long input's masks
// are zoomed (panels/mask_long_input.h).
#include "panels/count_text.h"
#include "panels/mask_cell_rule.h"
#include "panels/mask_flow.h"
#include "panels/mask_long_input.h"
#include "panels/mask_sizing.h"
#include "panels/panel_context.h"
#include "panels/step_explanation.h"
#include "panels/tour_target.h"

#include "forward/mechanisms/layer_variants.h"
#include "forward/step_path.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <span>

namespace attnlab::gui {

namespace {

struct MaskInfo {
    StepId id;
    const char* title;
    const char* shape;
    bool padding() const { return id.kind == StepKind::padding_mask; }     // one row: keep_j
    // The masks attention reads, but the local layers' (layer_variants.h): it follows its use's mask, cut to the window.
    bool editable() const { return id.kind == StepKind::attention_mask && !is_local_mask(id); }
};

const MaskInfo kIngredients[] = {
    {StepId::of(StepKind::padding_mask, Stack::encoder), tr_noop("Source padding"), "(S)"},
    {StepId::of(StepKind::padding_mask, Stack::decoder), tr_noop("Target padding"), "(T)"},
    {StepId::of(StepKind::look_ahead_mask, Stack::decoder), tr_noop("Look-ahead"), "(T, T)"},
};
const MaskInfo kCombined[] = {
    {StepId::mask_of(AttentionUse::encoder_self), tr_noop("Encoder self-attention"), "(S, S)"},
    {StepId::mask_of(AttentionUse::decoder_self), tr_noop("Decoder self-attention"), "(T, T)"},
    // A model with local and global layers: the local layers' mask beside the global one.
    {local_mask_of(AttentionUse::encoder_self), tr_noop("Encoder self-attention, local layers (W = %d)"), "(S, S)"},
    {local_mask_of(AttentionUse::decoder_self), tr_noop("Decoder self-attention, local layers (W = %d)"), "(T, T)"},
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

// The window a mask cuts: every mask of a sliding-window model whose layers are all local (Mistral), the local
// layers' mask alone in a model with global layers too; 0 for none.
int window_of(const PanelContext& ctx, const MaskInfo& m) {
    return !has_local_and_global_layers(ctx.config()) || is_local_mask(m.id) ? ctx.config().sliding_window : 0;
}

// A mask's title: the look-ahead ingredient of a sliding-window model (Mistral) names its window, and so does the
// local layers' mask.
std::string mask_title(const PanelContext& ctx, const MaskInfo& m) {
    const int window = window_of(ctx, m);
    if (is_local_mask(m.id)) {
        char title[128];
        std::snprintf(title, sizeof title, ctx.t(m.title), window);
        return title;
    }
    if (m.id.kind != StepKind::look_ahead_mask || window <= 0) return ctx.t(m.title);
    char title[96];
    std::snprintf(title, sizeof title, ctx.t("Sliding window (W = %d)"), window);
    return title;
}

// A mask's title line, "Look-ahead  (T, T)", and its width unwrapped.
std::string title_line(const PanelContext& ctx, const MaskInfo& info) {
    return mask_title(ctx, info) + "  " + info.shape;
}
float title_width(const PanelContext& ctx, const MaskInfo& info) {
    return ImGui::CalcTextSize(title_line(ctx, info).c_str()).x;
}

// Why a blocked (or flipped) cell is what it is, from the ingredient masks' rules (panels/mask_cell_rule.h); empty
// for a plain 1.
std::string cell_reason(const PanelContext& ctx, const MaskInfo& m, int row, int col, float v, bool edited) {
    if (edited) return ctx.t("You flipped this cell.");
    if (v != 0.0f) return {};
    if (m.padding()) return ctx.t("This key is padding: hidden from every query.");
    const MaskAxes axes = axes_of(ctx, m);
    const Stack key_stack = axes.keys == Sequence::source ? Stack::encoder : Stack::decoder;
    const int window = window_of(ctx, m);
    const MaskCell cell{row, col, value_at(ctx, StepId::of(StepKind::padding_mask, key_stack), 0, col) == 0.0f,
                        axes.rows == Sequence::target && axes.keys == Sequence::target,  // the decoder's own tokens
                        window};
    switch (blocked_by(cell)) {
        case BlockedBy::nothing: return {};
        case BlockedBy::padding: return ctx.t("Blocked: the key is padding.");
        case BlockedBy::future: return ctx.t("Blocked: the key comes after the query (the future).");
        case BlockedBy::sliding_window: {
            char reason[256];
            std::snprintf(reason, sizeof reason,
                          ctx.t("Blocked by the sliding window (W = %d): the key is %d or more positions back; a "
                                "query sees itself and the %d keys before it."),
                          window, window, window - 1);
            return reason;
        }
    }
    return {};
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
    if (const std::string reason = cell_reason(ctx, m, row, col, v, edited); !reason.empty()) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 28.0f * ctx.em);
        ImGui::TextDisabled("%s", reason.c_str());
        ImGui::PopTextWrapPos();
    }
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
    Grid grid;        // grid.cell 0: too large to draw whole (a long input's), zoomed instead
    float zoomed_h;   // then: the zoomable viewport's cells' height, in pixels
    ImVec2 size;      // what it takes in its row: title, labels and cells (or the viewport), reset line
    bool zoomed() const { return grid.cell <= 0.0f; }
};

// The mask's rectangle on screen for the tour's marks: from its title to the end of its cells.
void mark_for_tour(PanelContext& ctx, const Block& b, ImVec2 origin, ImVec2 end) {
    const ImVec2 from(origin.x, origin.y - ImGui::GetFrameHeight());
    if (b.info.padding())  // the tour's padding masks, which the masks chapter says to look at
        mark_tour_watch(ctx, TourWatch::padding_masks, from, end);
    if (b.info.editable() && b.info.id.use == ctx.view.attention.family) {  // the tour's mask to click
        mark_tour_target(ctx, TourTaskKind::toggle_mask_cell, from, end);
        if (!b.zoomed()) mark_tour_target_cells(ctx, TourTaskKind::toggle_mask_cell, b.grid.cell);
    }
}

// A long input's mask: a padding strip, or the zoomable viewport (Fit by default).
MaskHit draw_long_mask(PanelContext& ctx, const Block& b) {
    const LongMask m{"masks-zoom/" + step_path(b.info.id), &b.entry->value, b.entry->version, &b.rows, &b.cols};
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const MaskHit hit = b.info.padding() ? draw_padding_strip(ctx, m, b.size.x)
                                         : draw_zoomed_mask(ctx, m, b.size.x, b.zoomed_h);
    mark_for_tour(ctx, b, origin, ImVec2(origin.x + b.size.x, ImGui::GetCursorScreenPos().y));
    return hit;
}

// A mask drawn whole: its cells with their labels and the edit dots.
MaskHit draw_whole_mask(PanelContext& ctx, const Block& b) {
    const Tensor& mask = b.entry->value;  // (rows, cols); a padding mask is one row
    const ConstMatMap m = mask.matrix();
    const int R = static_cast<int>(m.rows()), K = static_cast<int>(m.cols());
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    MatrixPlot plot{"masks/" + step_path(b.info.id),
                    mask.data.data(),
                    R,
                    K,
                    b.entry->version,
                    Colormap::sequential,
                    &b.rows,
                    &b.cols};
    plot.cell = b.grid.cell;
    plot.max_width = b.grid.max_width;
    HeatmapSource src{plot.key, plot.values, R, K, plot.version};  // 0..1: the legend over the masks says which
    const HeatmapHit hit = heatmap_widget(plot.key.c_str(), ctx.heatmaps.texture(src), R, K, matrix_layout(ctx, plot));
    if (const MaskOverrides* edits = overrides_of(ctx, b.info)) mark_edits(*edits, hit.grid, b.grid.cell, R, K);
    mark_for_tour(ctx, b, origin, ImVec2(hit.grid.x + K * b.grid.cell, hit.grid.y + R * b.grid.cell));
    return {hit.row, hit.col, hit.clicked};
}

// One mask: title, cells, tooltip, reset line; a click flips the cell (last, as it recomputes the mask).
void draw_block(PanelContext& ctx, const Block& b) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + b.size.x);  // a title wider than the cells wraps
    ImGui::TextUnformatted(title_line(ctx, b.info).c_str());
    ImGui::PopTextWrapPos();
    if (!b.entry) {
        text_not_run_yet(ctx);
        return;
    }
    const MaskHit hit = b.zoomed() ? draw_long_mask(ctx, b) : draw_whole_mask(ctx, b);
    const MaskOverrides* edits = overrides_of(ctx, b.info);
    const bool edited_cell = hit.row >= 0 && edits && edits->count({hit.row, hit.col});
    if (hit.row >= 0) cell_tooltip(ctx, b.info, b.entry->value, b.rows, b.cols, hit.row, hit.col, edited_cell);
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

// One row of masks: the largest cells (max_cell em), and a matrix at most `height` pixels tall.
struct RowSize {
    float max_cell, height;
};

// The height a mask `width` wide takes with its title (wrapped to that width) and reset line, as draw_block draws it.
float block_height(const PanelContext& ctx, const MaskInfo& info, bool run, float cells_h, float width) {
    const float line = ImGui::GetTextLineHeight(), spacing = ImGui::GetStyle().ItemSpacing.y;
    const float title = ImGui::CalcTextSize(title_line(ctx, info).c_str(), nullptr, false, width).y + spacing;
    if (!run) return title + line + spacing;  // "not run yet"
    const float reset = overrides_of(ctx, info) ? line + spacing : 0.0f;  // a small button: a line tall
    return title + cells_h + spacing + reset;
}

// The masks of this model from `infos`, laid out in `avail` pixels across: cells as large as `size` allows, `scale`
// of it, and the width fits; a mask that cannot be drawn whole at kMinMaskCell a cell goes to a zoomable viewport
// that height (or, a padding mask, to a strip) across the pane.
std::vector<Block> plan_row(const PanelContext& ctx, std::span<const MaskInfo> infos, const SequenceView& src,
                            const SequenceView& tgt, const std::vector<std::string>& keep, float avail, RowSize size,
                            float scale) {
    std::vector<Block> blocks;
    for (const MaskInfo& info : infos) {
        if (!ctx.stepper().find(info.id)) continue;
        const MaskAxes axes = axes_of(ctx, info);
        const std::vector<std::string>& cols = labels_of(src, tgt, axes.keys);
        const std::vector<std::string>& rows = info.padding() ? keep : labels_of(src, tgt, axes.rows);
        const int n_rows = static_cast<int>(rows.size()), n_cols = static_cast<int>(std::max<size_t>(cols.size(), 1));
        // Whole pixels a cell: a fractional cell resamples the matrix's texture and drops some of its grid lines.
        // The row labels' band and an em beside the cells.
        const HeatmapLayout labelled{ctx.em, &rows, &cols};
        const float cells_w = avail - heatmap_geometry(n_rows, n_cols, labelled).grid.x - ctx.em;
        const float cell =
            mask_cell(n_rows, n_cols, cells_w, scale * size.height, scale * size.max_cell * ctx.em);
        const TraceEntry* entry = ctx.stepper().entry(info.id);
        const float title = title_width(ctx, info);
        if (cell <= 0.0f) {  // too large to draw whole
            const float zoomed_h = std::max(scale * size.height, 6.0f * ctx.em);
            const float cells_h = info.padding() ? padding_strip_height(ctx) : zoomed_mask_height(ctx, zoomed_h);
            const float width = std::max(avail, title);
            blocks.push_back(
                {info, entry, rows, cols, Grid{}, zoomed_h, ImVec2(width, block_height(ctx, info, entry, cells_h, width))});
            continue;
        }
        const Grid grid = grid_for(ctx, rows, cols, cell);
        const float reset = overrides_of(ctx, info) ? ImGui::CalcTextSize(ctx.t("Reset mask")).x +
                                                          ImGui::CalcTextSize(ctx.t("%lld cells edited")).x + 4.0f * ctx.em
                                                    : 0.0f;
        // A title wider than the cells wraps (to 8 em at least), so that a classroom's long titles do not push
        // the masks onto more rows.
        const float width = std::max({grid.size.x, reset, std::min(title, std::max(grid.size.x, 8.0f * ctx.em))});
        blocks.push_back({info, entry, rows, cols, grid, 0.0f,
                          ImVec2(width, block_height(ctx, info, entry, grid.size.y, width))});
    }
    return blocks;
}

constexpr float kMaskGap = 2.0f;  // em between masks in a row

float row_height(const PanelContext& ctx, const std::vector<Block>& blocks, float avail) {
    std::vector<ImVec2> sizes;
    for (const Block& b : blocks) sizes.push_back(b.size);
    return flow_height(sizes, avail, kMaskGap * ctx.em);
}

// Masks left to right in `avail` pixels, wrapping when the next one does not fit.
void draw_row(PanelContext& ctx, const std::vector<Block>& blocks, float avail) {
    FlowLayout flow(avail, kMaskGap * ctx.em);
    for (const Block& b : blocks) {
        flow.begin_block(b.size.x);
        draw_block(ctx, b);
        flow.end_block();
    }
    flow.finish();
}

// A heading over a row of masks `width` pixels wide, wrapped to it, with a rule under it.
void heading(const char* text, float width) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddLine(p, ImVec2(p.x + width, p.y), ImGui::GetColorU32(ImGuiCol_Separator));
    ImGui::Dummy(ImVec2(width, 1.0f));
}

// The height of the gap and heading over a row: ImGui::Spacing, the text as it wraps, the rule.
float heading_height(const char* text, float width) {
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    return spacing + ImGui::CalcTextSize(text, nullptr, false, width).y + spacing + 1.0f + spacing;
}

// "■ 1: may attend   ■ 0: blocked", each square in its end of the masks' colormap: one legend for every mask.
void mask_legend(PanelContext& ctx) {
    const ImTextureID ramp = ctx.heatmaps.colorbar(Colormap::sequential);
    const float side = ImGui::GetTextLineHeight();
    for (const int value : {1, 0}) {
        if (value == 0) ImGui::SameLine(0.0f, 1.5f * ctx.em);
        const float u = value == 1 ? 0.99f : 0.01f;  // the ramp's end, sampled inside its last texel
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddImage(ramp, p, ImVec2(p.x + side, p.y + side), ImVec2(u, 0), ImVec2(u, 1));
        ImGui::Dummy(ImVec2(side, side));
        ImGui::SameLine();
        ImGui::Text("%d: %s", value, value == 1 ? ctx.t("may attend") : ctx.t("blocked"));
    }
}

// The ingredients are the reference; the masks attention uses are what a class clicks. Stacked, the ingredients get
// at most kIngredientsShare of the pane's height and the masks attention uses the rest; side by side (where that
// makes the masks attention uses larger), the ingredients get kIngredientsSide of its width.
constexpr float kIngredientsShare = 0.3f, kIngredientsSide = 0.3f;
constexpr RowSize kIngredientsCells{1.3f, 10.0f}, kCombinedCells{2.0f, 0.0f};  // heights: em; 0: the room left
// How far cells shrink to fit, at most: projected, to a quarter (no one scrolls a class's screen); at a
// desk, to a half (a mouse scrolls, and smaller cells lose their labels).
float smallest_scale(const PanelContext& ctx) { return ctx.view.settings.classroom ? 0.25f : 0.5f; }

// Both rows planned for a pane: where each goes, and their blocks.
struct MasksLayout {
    bool side_by_side = false;
    bool fits = false;  // both rows fit their room (else the masks attention uses are at their largest, and scroll)
    float ingredients_w = 0.0f, combined_w = 0.0f;  // their widths in pixels
    std::vector<Block> ingredients, combined;
    float combined_cell() const {  // the smallest cell of the masks attention uses (a zoomed one: 0)
        float c = combined.empty() ? 0.0f : combined.front().grid.cell;
        for (const Block& b : combined) c = std::min(c, b.grid.cell);
        return c;
    }
};

struct MasksInput {
    const SequenceView& src;
    const SequenceView& tgt;
    const std::vector<std::string>& keep;
    const char* combined_heading;
    const char* ingredients_heading;
};

// The ingredients in `ingredients_w` × at most `ingredients_h`, then the masks attention uses in `combined_w` ×
// `combined_h` (less its heading) as large as they fit. A room too small for them even at smallest_scale shows them
// larger, and scrolls.
MasksLayout plan_masks(const PanelContext& ctx, const MasksInput& in, bool side_by_side, float ingredients_w,
                       float ingredients_h, float combined_w, float combined_h) {
    MasksLayout out{side_by_side, false, ingredients_w, combined_w, {}, {}};
    const float smallest = smallest_scale(ctx);
    const RowSize ingredients_size{kIngredientsCells.max_cell, kIngredientsCells.height * ctx.em};
    const auto ingredients_at = [&](float s) {
        return plan_row(ctx, kIngredients, in.src, in.tgt, in.keep, ingredients_w, ingredients_size, s);
    };
    const std::optional<float> ingredients_scale = largest_fitting_scale(smallest, 1.0f, [&](float s) {
        return row_height(ctx, ingredients_at(s), ingredients_w) <= ingredients_h;
    });
    out.ingredients = ingredients_at(ingredients_scale.value_or(smallest));
    if (!side_by_side) combined_h -= row_height(ctx, out.ingredients, ingredients_w);
    // The room left for the masks attention uses, and at least a matrix of 12 em.
    const float room = std::max(combined_h - heading_height(in.combined_heading, combined_w), 12.0f * ctx.em);
    const RowSize combined_size{kCombinedCells.max_cell, room};
    const auto combined_at = [&](float s) {
        return plan_row(ctx, kCombined, in.src, in.tgt, in.keep, combined_w, combined_size, s);
    };
    const std::optional<float> combined_scale = largest_fitting_scale(smallest, 1.0f, [&](float s) {
        return row_height(ctx, combined_at(s), combined_w) <= room;
    });
    // Not even at smallest_scale: a class sees as much as it can (no one scrolls its screen), a desk the largest.
    out.combined = combined_at(combined_scale.value_or(ctx.view.settings.classroom ? smallest : 1.0f));
    out.fits = ingredients_scale && combined_scale;
    return out;
}

void draw_combined(PanelContext& ctx, const MasksLayout& l, const char* text) {
    ImGui::Spacing();
    mark_tour_section(ctx, TourTaskKind::toggle_mask_cell);  // the tour's mask: shown from this heading
    heading(text, l.combined_w);
    draw_row(ctx, l.combined, l.combined_w);
}

void draw_ingredients(PanelContext& ctx, const MasksLayout& l, const char* text) {
    ImGui::Spacing();
    heading(text, l.ingredients_w);
    draw_row(ctx, l.ingredients, l.ingredients_w);
}

}  // namespace

// The masks attention uses as large as the pane allows, the ingredients above them or, where that makes them
// larger, beside them (right, in kIngredientsSide of the width).
void draw_masks_panel(PanelContext& ctx) {
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x);  // ImGui's default edge lies under the scrollbar
    ImGui::TextUnformatted(
        ctx.t("1 = may attend, 0 = blocked. Rows are queries, columns are keys; padding masks "
              "block keys (columns) only. A white dot marks a cell you flipped."));
    mask_legend(ctx);
    ImGui::PopTextWrapPos();
    const SequenceView src = ctx.session.source(), tgt = ctx.session.target();
    const std::vector<std::string> keep = {ctx.t("keep")};
    const MasksInput in{src, tgt, keep,
                        ctx.t("Masks the attention uses: click a cell to flip it; the forward pass re-runs"),
                        ctx.t("Ingredients")};
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = kMaskGap * ctx.em;
    const float stacked_h = avail.y - heading_height(in.ingredients_heading, avail.x);
    const MasksLayout stacked = plan_masks(ctx, in, false, avail.x, kIngredientsShare * stacked_h, avail.x, stacked_h);
    const float side_w = std::floor(kIngredientsSide * avail.x);
    const MasksLayout side = plan_masks(ctx, in, true, side_w, avail.y - heading_height(in.ingredients_heading, side_w),
                                        avail.x - side_w - gap, avail.y);
    // Side by side only where it fits and gives the clicked masks clearly larger cells (none zoomed), or where
    // only it fits.
    const bool beside = side.fits && stacked.combined_cell() > 0.0f &&
                        (!stacked.fits || side.combined_cell() >= 1.25f * stacked.combined_cell());
    if (!beside) {
        draw_ingredients(ctx, stacked, in.ingredients_heading);
        draw_combined(ctx, stacked, in.combined_heading);
        return;
    }
    const ImVec2 top = ImGui::GetCursorScreenPos();
    draw_combined(ctx, side, in.combined_heading);
    const float left_bottom = ImGui::GetCursorScreenPos().y;
    const float indent = side.combined_w + gap;
    ImGui::Indent(indent);  // the right column's lines start there
    ImGui::SetCursorScreenPos(ImVec2(top.x + indent, top.y));
    draw_ingredients(ctx, side, in.ingredients_heading);
    const float right_bottom = ImGui::GetCursorScreenPos().y;
    ImGui::Unindent(indent);
    ImGui::SetCursorScreenPos(ImVec2(top.x, std::max(left_bottom, right_bottom)));
    ImGui::Dummy(ImVec2(0.0f, 0.0f));
}

}  // namespace attnlab::gui
