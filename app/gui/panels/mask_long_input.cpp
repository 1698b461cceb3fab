// A long input's masks: the zoomable square mask and the padding strip.
#include "panels/mask_long_input.h"

#include "panels/mask_sizing.h"
#include "panels/zoom_matrix.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace attnlab::gui {

namespace {

// Each zoomed mask's zoom and pan, by its key, while the view shows it (a layout, like the textures).
struct MaskZooms {
    std::map<std::string, MatrixZoom> by_key;
};

}  // namespace

float padding_strip_height(const PanelContext& ctx) { return 1.2f * ctx.em + ImGui::GetStyle().ItemSpacing.y; }

MaskHit draw_padding_strip(PanelContext& ctx, const LongMask& m, float width) {
    MaskHit hit;
    const int K = static_cast<int>(m.mask->dim(m.mask->rank() - 1));
    const char* row_label = m.rows && !m.rows->empty() ? m.rows->front().c_str() : "";
    const float label_w = ImGui::CalcTextSize(row_label).x + 0.5f * ctx.em, h = 1.2f * ctx.em;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 a(std::floor(origin.x + label_w), origin.y);
    const float w = std::max(width - label_w, 2.0f * ctx.em);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddText(ImVec2(origin.x, origin.y + 0.5f * (h - ImGui::GetTextLineHeight())),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled), row_label);
    // Each run in the colour of its value: the colour bar's texture sampled at its end (0 left, 1 right).
    const ImTextureID ramp = ctx.heatmaps.colorbar(Colormap::sequential);
    const std::vector<StripRun> runs = strip_runs(m.mask->data.data(), K, w);
    for (const StripRun& r : runs) {
        const float u = r.kept ? 0.99f : 0.01f;
        draw->AddImage(ramp, ImVec2(a.x + r.x0, a.y), ImVec2(a.x + r.x1, a.y + h), ImVec2(u, 0.0f), ImVec2(u, 1.0f));
    }
    draw->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + w + 1, a.y + h + 1), ImGui::GetColorU32(ImGuiCol_Border));
    ImGui::SetCursorScreenPos(a);
    ImGui::InvisibleButton(m.key.c_str(), ImVec2(w, h));
    if (ImGui::IsItemHovered()) {
        hit.row = 0, hit.col = strip_key_at(runs, ImGui::GetIO().MousePos.x - a.x);
        if (hit.col < 0) hit.row = -1;
    }
    if (hit.col >= 0) {  // the hovered key, outlined
        const auto run = std::find_if(runs.begin(), runs.end(), [&](const StripRun& r) { return hit.col < r.end; });
        const float x = a.x + run->x0 + (run->x1 - run->x0) * static_cast<float>(hit.col - run->first) /
                                            static_cast<float>(run->end - run->first);
        draw->AddRect(ImVec2(x - 1, a.y - 2), ImVec2(x + 2, a.y + h + 2), IM_COL32(255, 64, 64, 255), 0.0f, 0, 2.0f);
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + padding_strip_height(ctx)));
    return hit;
}

float zoomed_mask_height(const PanelContext& ctx, float cells_height) {
    // draw_zoom_matrix's toolbar (a frame), column labels (3.5 em) and colour bar (2.6 lines), with spacing.
    const float line = ImGui::GetTextLineHeight(), spacing = ImGui::GetStyle().ItemSpacing.y;
    return ImGui::GetFrameHeight() + spacing + 3.5f * ctx.em + cells_height + 2.6f * line + spacing;
}

MaskHit draw_zoomed_mask(PanelContext& ctx, const LongMask& m, float width, float cells_height) {
    const int R = static_cast<int>(m.mask->dim(0)), K = static_cast<int>(m.mask->dim(1));
    ZoomMatrixPlot plot;
    plot.key = m.key;
    plot.values = m.mask->data.data();
    plot.rows = R, plot.cols = K;
    plot.version = m.version;
    plot.fixed_range = true, plot.lo = 0.0f, plot.hi = 1.0f;
    plot.row_labels = m.rows, plot.col_labels = m.cols;
    plot.max_cell = 2.0f * ctx.em;
    plot.hover_tooltip = false;  // the masks view says why a cell is blocked
    MatrixZoom& zoom = ctx.caches.get<MaskZooms>().by_key[m.key];
    ImGui::BeginChild(m.key.c_str(), ImVec2(width, zoomed_mask_height(ctx, cells_height)), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const ZoomMatrixHit z = draw_zoom_matrix(ctx, plot, zoom);
    ImGui::EndChild();
    return {z.row, z.col, z.clicked};
}

}  // namespace attnlab::gui
