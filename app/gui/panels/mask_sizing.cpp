// The masks view's cell size, and a padding strip's runs.
#include "panels/mask_sizing.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

float mask_cell(int rows, int cols, float width, float height, float max_cell) {
    if (rows <= 0 || cols <= 0) return 0.0f;
    const float cell = std::floor(std::min({width / static_cast<float>(cols), height / static_cast<float>(rows),
                                            max_cell}));
    return cell >= kMinMaskCell ? cell : 0.0f;
}

std::vector<StripRun> strip_runs(const float* keep, int n, float width) {
    std::vector<StripRun> runs;
    for (int j = 0; j < n; ++j)
        if (runs.empty() || (keep[j] != 0.0f) != runs.back().kept)
            runs.push_back({j, j + 1, 0.0f, 0.0f, keep[j] != 0.0f});
        else
            runs.back().end = j + 1;
    if (runs.empty() || width <= 0.0f) return runs;
    // Each run's share of the width by its keys, then every run widened to a pixel, the pixels taken
    // proportionally from the runs wider than one.
    const float per_key = width / static_cast<float>(n);
    std::vector<float> w(runs.size());
    float narrow = 0.0f, wide = 0.0f;
    for (size_t r = 0; r < runs.size(); ++r) {
        w[r] = static_cast<float>(runs[r].end - runs[r].first) * per_key;
        if (w[r] < 1.0f)
            narrow += 1.0f - w[r];
        else
            wide += w[r] - 1.0f;
    }
    const float take = wide > 0.0f ? std::min(narrow / wide, 1.0f) : 0.0f;
    float x = 0.0f;
    for (size_t r = 0; r < runs.size(); ++r) {
        const float width_r = w[r] < 1.0f ? 1.0f : w[r] - (w[r] - 1.0f) * take;
        runs[r].x0 = x;
        x += width_r;
        runs[r].x1 = x;
    }
    return runs;
}

int strip_key_at(const std::vector<StripRun>& runs, float x) {
    for (const StripRun& r : runs)
        if (x >= r.x0 && x < r.x1) {
            const float t = (x - r.x0) / std::max(r.x1 - r.x0, 1e-6f);
            return std::min(r.first + static_cast<int>(t * static_cast<float>(r.end - r.first)), r.end - 1);
        }
    return -1;
}

}  // namespace attnlab::gui
