#include "analysis/head_summary.h"
#include "analysis/attention_weights.h"

#include <cmath>
#include <limits>

namespace attnlab {

std::vector<HeadStats> head_stats(const Tensor& weights) {
    const int64_t H = weights.dim(0), Tq = weights.dim(1), Tk = weights.dim(2);
    const bool square = Tq == Tk;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<HeadStats> out(static_cast<size_t>(H));
    for (int64_t h = 0; h < H; ++h) {
        const ConstMatMap p = weights.slice(h);  // (Tq, Tk)
        double entropy = 0, previous = 0, first = 0, self = 0;
        int64_t rows = 0, previous_rows = 0;
        for (int64_t i = 0; i < Tq; ++i) {
            if (p.row(i).sum() <= 0.0f) continue;  // every key masked
            ++rows;
            for (int64_t j = 0; j < Tk; ++j)
                if (const double v = p(i, j); v > 0) entropy -= v * std::log(v);
            first += p(i, 0);
            if (square) self += p(i, i);
            if (square && i >= 1) previous += p(i, i - 1), ++previous_rows;
        }
        HeadStats& s = out[static_cast<size_t>(h)];
        const auto mean = [&](double sum, int64_t n) { return n > 0 ? static_cast<float>(sum / n) : nan; };
        s.entropy = mean(entropy, rows);
        s.first_token = mean(first, rows);
        s.self = square ? mean(self, rows) : nan;
        s.previous_token = square ? mean(previous, previous_rows) : nan;
    }
    return out;
}

HeadSummary summarize_heads(const Stepper& stepper) {
    HeadSummary summary;
    for (const AttentionWeights& a : attention_weights_run(stepper))
        summary.layers.push_back({a.attention, head_stats(*a.weights)});
    return summary;
}

}  // namespace attnlab
