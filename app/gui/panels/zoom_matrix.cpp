// The zoomable matrix: toolbar (Fit, zoom, hint), labels of the visible rows and columns, the visible cells from
// one texture, numbers, marks, hover, and the colour bar.
#include "panels/zoom_matrix.h"

#include "panels/token_matrix.h"
#include "widgets/label_draw.h"
#include "widgets/value_units.h"

#include <imgui_internal.h>  // SetItemUsingMouseWheel: the wheel zooms the matrix instead of scrolling the pane

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

// The colour range of the last matrix drawn, kept until its data changes (a head is a million values).
struct ZoomRangeCache {
    std::string key;
    uint64_t version = 0;
    float lo = 0.0f, hi = 1.0f;
    bool valid = false;
};

void plot_range(PanelContext& ctx, const ZoomMatrixPlot& p, float& lo, float& hi) {
    if (p.fixed_range) {
        lo = p.lo, hi = p.hi;
        return;
    }
    ZoomRangeCache& c = ctx.caches.get<ZoomRangeCache>();
    if (!c.valid || c.key != p.key || c.version != p.version) {
        heatmap_range(p.values, static_cast<int64_t>(p.rows) * p.cols, p.colormap, c.lo, c.hi);
        c.key = p.key, c.version = p.version, c.valid = true;
    }
    lo = c.lo, hi = c.hi;
}

// Labels [first, end) of `all`, or their numbers when there are no labels.
std::vector<std::string> visible_labels(const std::vector<std::string>* all, int first, int end) {
    std::vector<std::string> out;
    out.reserve(static_cast<size_t>(end - first));
    for (int i = first; i < end; ++i)
        out.push_back(all && i < static_cast<int>(all->size()) ? (*all)[static_cast<size_t>(i)] : std::to_string(i));
    return out;
}

const char* label_of(const std::vector<std::string>* labels, int i) {
    return labels && i >= 0 && i < static_cast<int>(labels->size()) ? (*labels)[static_cast<size_t>(i)].c_str() : "";
}

// The texture's size for `n` visible cells at `scale` pixels each: one texel per pixel when cells are smaller than a
// pixel (max-pooled), else whole pixels per cell (up to 24, so the grid lines of heatmap.frag show).
int texture_extent(int n, float scale) {
    if (scale < 1.0f) return std::clamp(static_cast<int>(std::ceil(static_cast<float>(n) * scale)), 1, n);
    return n * std::clamp(static_cast<int>(scale), 1, 24);
}

}  // namespace

ZoomMatrixHit draw_zoom_matrix(PanelContext& ctx, const ZoomMatrixPlot& p, MatrixZoom& zoom) {
    ZoomMatrixHit hit;
    if (!p.values || p.rows <= 0 || p.cols <= 0) return hit;
    const float em = ctx.em, line_h = ImGui::GetTextLineHeight();
    // The toolbar: Fit, the zoom, and how to zoom and pan.
    if (ImGui::Button(ctx.t("Fit"))) zoom = MatrixZoom{};
    ImGui::SameLine();
    ImGui::Text("×%.1f", static_cast<double>(zoom.zoom));
    const char* hint = ctx.t("Wheel: zoom at the pointer; drag: pan");
    if (same_line_if_fits(ImGui::CalcTextSize(hint).x, ImGui::GetStyle().ItemSpacing.x))
        ImGui::TextDisabled("%s", hint);
    else
        ImGui::Dummy(ImVec2(0, 0));

    // Row labels left of the viewport, column labels above it, the colour bar under it.
    const float margin = 0.3f * em, row_band = 5.0f * em, col_band = 3.5f * em, bar_h = 2.6f * line_h;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float max_cell = p.max_cell > 0.0f ? p.max_cell : 3.2f * em;
    ZoomViewport vp;
    vp.rows = p.rows, vp.cols = p.cols, vp.max_cell = max_cell;
    vp.width = std::floor(std::clamp(avail.x - row_band - 0.5f * em, 4.0f * em, p.cols * max_cell));
    vp.height = std::floor(std::clamp(avail.y - col_band - bar_h, 4.0f * em, p.rows * max_cell));
    zoom = clamp_zoom(zoom, vp);

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 at(std::floor(origin.x + row_band), std::floor(origin.y + col_band));  // the viewport's corner
    ImGui::SetCursorScreenPos(at);
    ImGui::InvisibleButton(
        "cells", ImVec2(vp.width, vp.height),
        ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
    ImGui::SetItemUsingMouseWheel();
    const bool hovered = ImGui::IsItemHovered();
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 m(io.MousePos.x - at.x, io.MousePos.y - at.y);
    if (hovered && io.MouseWheel != 0.0f) zoom = zoom_about(zoom, vp, m.x, m.y, std::pow(1.25f, io.MouseWheel));
    if (ImGui::IsItemActive())
        for (int b = 0; b < 3; ++b)
            if (ImGui::IsMouseDragging(b)) {
                zoom = pan_by(zoom, vp, io.MouseDelta.x, io.MouseDelta.y);
                break;
            }
    const float drag_sq = io.MouseDragThreshold * io.MouseDragThreshold;
    hit.clicked = hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < drag_sq;
    ImGui::SetCursorScreenPos(origin);
    ImGui::Dummy(ImVec2(row_band + vp.width, col_band + vp.height));

    const ZoomFrame f = zoom_frame(zoom, vp);
    const CellRange r = visible_cells(f, vp);
    if (r.rows() <= 0 || r.cols() <= 0) return hit;
    if (hovered) cell_at(f, vp, m.x, m.y, hit.row, hit.col);
    float lo = 0.0f, hi = 1.0f;
    plot_range(ctx, p, lo, hi);

    // The visible cells: one window of the matrix, pooled or enlarged into a texture.
    const size_t first = static_cast<size_t>(r.row0) * p.cols + r.col0;
    HeatmapSource src{p.key, p.values + first, r.rows(), r.cols(), p.version};
    if (p.mask) src.mask = p.mask + first, src.mask_version = p.mask_version;
    src.colormap = p.colormap, src.lo = lo, src.hi = hi, src.stride = p.cols;
    const ImTextureID tex =
        ctx.heatmaps.texture(src, texture_extent(r.cols(), f.scale), texture_extent(r.rows(), f.scale));
    const auto screen_x = [&](float col) { return at.x + (col - f.x) * f.scale; };
    const auto screen_y = [&](float row) { return at.y + (row - f.y) * f.scale; };
    const ImVec2 cells_end(at.x + f.x1, at.y + f.y1);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(at, cells_end, true);
    draw->AddImage(tex, ImVec2(screen_x(static_cast<float>(r.col0)), screen_y(static_cast<float>(r.row0))),
                   ImVec2(screen_x(static_cast<float>(r.col1)), screen_y(static_cast<float>(r.row1))));
    // Numbers once a cell holds "-0.00" (or "-0.0"): dark on the colormap's light end (viridis' yellow-green, the
    // diverging map's white middle), white elsewhere; one text a cell (a shadow doubled the glyphs of a frame).
    const int decimals = ImGui::CalcTextSize("-0.00").x + margin <= f.scale  ? 2
                         : ImGui::CalcTextSize("-0.0").x + margin <= f.scale ? 1
                                                                             : -1;
    const auto on_light = [&](float v) {
        if (p.colormap == Colormap::sequential) return (v - lo) / std::max(hi - lo, 1e-12f) > 0.6f;
        return std::abs(v) / std::max(hi, 1e-12f) < 0.45f;
    };
    // Values all below 0.05 (a gradient's) print in units of a power of ten the colour bar names
    // (widgets/value_units.h): 0.000139 as "1.4" beside "×10^-4", not as "0.0".
    const int exponent = print_exponent(std::max(std::abs(lo), std::abs(hi)));
    const float unit = print_factor(exponent);
    if (decimals >= 0)
        for (int i = r.row0; i < r.row1; ++i)
            for (int j = r.col0; j < r.col1; ++j) {
                const float v = p.values[static_cast<size_t>(i) * p.cols + j];
                if (std::isfinite(v) && p.mask && p.mask[static_cast<size_t>(i) * p.cols + j] == 0.0f)
                    continue;  // a masked cell shows its hatching (the masked stage's −∞ still prints)
                const std::string s = cell_number(v * unit, decimals);
                const float w = ImGui::CalcTextSize(s.c_str()).x;
                const ImVec2 q(screen_x(j + 0.5f) - 0.5f * w, screen_y(i + 0.5f) - 0.5f * line_h);
                draw->AddText(q, on_light(v) ? IM_COL32(20, 20, 20, 255) : IM_COL32(255, 255, 255, 255), s.c_str());
            }
    const auto outline = [&](int row, int col, ImU32 colour) {
        if (row < r.row0 || row >= r.row1 || col < r.col0 || col >= r.col1) return;
        const ImVec2 a(screen_x(static_cast<float>(col)), screen_y(static_cast<float>(row)));
        const float s = std::max(f.scale, 3.0f);  // a cell smaller than a pixel still shows where it is
        draw->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + s + 1, a.y + s + 1), colour, 0.0f, 0, 2.0f);
    };
    outline(p.mark_row, p.mark_col, IM_COL32(255, 200, 40, 255));
    if (hit.row >= 0) outline(hit.row, hit.col, IM_COL32(255, 64, 64, 255));
    draw->PopClipRect();
    draw->AddRect(ImVec2(at.x - 1, at.y - 1), ImVec2(cells_end.x + 1, cells_end.y + 1),
                  ImGui::GetColorU32(ImGuiCol_Border));

    // The visible rows' and columns' labels (widgets/label_layout.h: thinned while the cells are small), the
    // hovered or pinned one always shown and lit.
    const TextMeasure measure = imgui_text_measure();
    const int keep_row = hit.row >= 0 ? hit.row : p.mark_row, keep_col = hit.row >= 0 ? hit.col : p.mark_col;
    const auto relative = [](int i, int first_i, int end_i) { return i >= first_i && i < end_i ? i - first_i : -1; };
    const AxisLabels rows = layout_axis_labels(
        visible_labels(p.row_labels, r.row0, r.row1), measure,
        {LabelAxis::rows, f.scale, row_band - margin, 0.0f, 0.05f * em, relative(keep_row, r.row0, r.row1), margin});
    AxisLabelRequest col_request{
        LabelAxis::columns, f.scale, col_band - margin, 0.0f, 0.3f * em, relative(keep_col, r.col0, r.col1), margin};
    col_request.word_gap = 0.5f * em;
    const AxisLabels cols = layout_axis_labels(visible_labels(p.col_labels, r.col0, r.col1), measure, col_request);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImVec2 cell0(screen_x(static_cast<float>(r.col0)), screen_y(static_cast<float>(r.row0)));
    draw->PushClipRect(ImVec2(origin.x, at.y), ImVec2(at.x, cells_end.y), true);
    // Each axis from the first visible cell along it, and from the viewport's edge across it (a row half scrolled
    // out of view must not lift the column labels out of their band).
    draw_axis_labels(draw, ImVec2(at.x, cell0.y), rows, [&](int i) { return i + r.row0 == keep_row ? text : dim; });
    draw->PopClipRect();
    draw->PushClipRect(ImVec2(at.x, origin.y), ImVec2(cells_end.x + 0.5f * em, at.y), true);
    draw_axis_labels(draw, ImVec2(cell0.x, at.y), cols, [&](int j) { return j + r.col0 == keep_col ? text : dim; });
    draw->PopClipRect();

    if (hit.row >= 0 && p.hover_tooltip) {  // the query, the key and the exact value
        ImGui::BeginTooltip();
        if (p.col_labels)
            ImGui::Text("%s → %s", label_of(p.row_labels, hit.row), label_of(p.col_labels, hit.col));
        else
            ImGui::TextUnformatted(label_of(p.row_labels, hit.row));
        ImGui::TextDisabled(ctx.t("row %d, column %d"), hit.row, hit.col);
        const float v = p.values[static_cast<size_t>(hit.row) * p.cols + hit.col];
        ImGui::Text("%.9g", static_cast<double>(v));
        ImGui::EndTooltip();
    }
    ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + vp.height + 0.4f * em));
    const std::string caption = caption_with_unit(p.caption ? p.caption : "", decimals < 0 ? 0 : exponent);
    colorbar_widget(ctx.heatmaps.colorbar(p.colormap), lo, hi, std::min(14.0f * em, std::max(vp.width, 6.0f * em)),
                    caption.empty() ? nullptr : caption.c_str());
    return hit;
}

}  // namespace attnlab::gui
