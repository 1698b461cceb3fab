// The FFN overview heatmap, folded into strips so that a wide F (2048) needs no horizontal scrolling.
#include "panels/ffn_overview.h"

#include <algorithm>
#include <limits>

namespace attnlab::gui {

namespace {

// (strips·(N+1) − 1, W): token r's units [c·W, (c+1)·W) on row c·(N+1) + r; NaN elsewhere.
Tensor fold_units(const Tensor& h, int strips, int width) {
    const auto N = h.dim(0), F = h.dim(1);
    Tensor folded({strips * (N + 1) - 1, width});
    std::fill(folded.data.begin(), folded.data.end(), std::numeric_limits<float>::quiet_NaN());
    for (int64_t c = 0; c < strips; ++c)
        for (int64_t r = 0; r < N; ++r)
            std::copy_n(h.row(r).data() + c * width, std::min<int64_t>(width, F - c * width),
                        folded.row(c * (N + 1) + r).data());
    return folded;
}

void outline_window(ImVec2 grid, float cell, int n_tokens, int strips, int width, int first, int window) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (int c = 0; c < strips; ++c) {
        const int a = std::max(first, c * width) - c * width, b = std::min(first + window, (c + 1) * width) - c * width;
        if (a >= b) continue;
        const float top = grid.y + c * (n_tokens + 1) * cell;
        const ImVec2 p(grid.x + a * cell - 1.0f, top - 2.0f), q(grid.x + b * cell + 1.0f, top + n_tokens * cell + 2.0f);
        draw->AddRect(p, q, IM_COL32(0, 0, 0, 255), 0.0f, 0, 4.0f);  // dark then light: it shows on any colour
        draw->AddRect(p, q, IM_COL32(255, 255, 255, 255), 0.0f, 0, 1.5f);
    }
}

}  // namespace

UnitHit draw_units_overview(PanelContext& ctx, const std::string& path, const TraceEntry& entry, Colormap colormap,
                            float lo, float hi, int first, int window) {
    const Tensor& h = entry.value;  // (N, F)
    const int N = static_cast<int>(h.dim(0)), F = static_cast<int>(h.dim(1));
    const float avail = ImGui::GetContentRegionAvail().x - ctx.em;  // what plot_matrix gives cells when unlabelled
    const int fit = std::max(1, static_cast<int>(avail / 2.0f));
    const int strips = (F + fit - 1) / fit, width = (F + strips - 1) / strips;
    const Tensor folded = fold_units(h, strips, width);

    const ImVec2 grid = ImGui::GetCursorScreenPos();  // unlabelled cells start at the cursor
    const float cell = std::clamp(avail / width, 2.0f, 2.2f * ctx.em);
    MatrixPlot plot{"ffn/" + path + "/" + std::to_string(width),
                    folded.data.data(),
                    static_cast<int>(folded.dim(0)),
                    width,
                    entry.version,
                    colormap};
    plot.fixed_range = true, plot.lo = lo, plot.hi = hi;
    plot.caption =
        strips > 1 ? ctx.t("all F units, in strips; click to zoom there") : ctx.t("all F units; click to zoom there");
    const HeatmapHit hit = plot_matrix(ctx, plot);
    if (window < F) outline_window(grid, cell, N, strips, width, first, window);

    UnitHit out;
    const int token = hit.row % (N + 1), unit = hit.row / (N + 1) * width + hit.col;
    if (hit.row >= 0 && token < N && unit < F) out = {token, unit, hit.clicked};
    return out;
}

}  // namespace attnlab::gui
