// Statistics and a histogram of every value of one weight tensor, computed once per tensor.
#pragma once

#include "panels/panel_context.h"

#include <array>

namespace attnlab::gui {

inline constexpr int kWeightBins = 40;

struct WeightSummary {
    int64_t count = 0;
    double mean = 0.0, std = 0.0;
    float min = 0.0f, max = 0.0f;
    float near_zero = 0.0f;                   // fraction with |v| < 1% of max |v|
    float lo = 0.0f, hi = 1.0f;               // the histogram's range: [min, max], widened when min = max
    std::array<int64_t, kWeightBins> bins{};  // counts over [lo, hi]
};

WeightSummary summarize_weights(const Tensor& t);

// The statistics as a small table, and beside it the histogram drawn with ImDrawList.
void draw_weight_summary(const PanelContext& ctx, const Tensor& t, const WeightSummary& s);

}  // namespace attnlab::gui
