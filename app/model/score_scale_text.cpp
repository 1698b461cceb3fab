// The scale's notation: the paper's ÷√D, none, a whole divisor or its square root, or the number; and the scores
// with it, soft-capped or not.
#include "score_scale_text.h"

#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

// n when x is within a millionth of the whole number n ≥ 2.
bool whole(double x, long& n) {
    n = std::lround(x);
    return n >= 2 && std::abs(x - static_cast<double>(n)) <= 1e-6 * x;
}

}  // namespace

ScoreScaleText score_scale_text(const ModelConfig& config) {
    const double s = config.attention_scale;
    if (s <= 0.0) return {"/√D", "÷√D"};
    if (s == 1.0) return {"", "×1"};
    long n = 0;
    if (whole(1.0 / s, n)) return {"/" + std::to_string(n), "÷" + std::to_string(n)};
    if (whole(1.0 / (s * s), n)) return {"/√" + std::to_string(n), "÷√" + std::to_string(n)};
    char number[32];
    std::snprintf(number, sizeof number, "%.4g", s);
    return {std::string("·") + number, std::string("×") + number};
}

std::string score_formula(const ModelConfig& config) {
    const std::string scores = "QKᵀ" + score_scale_text(config).factor;
    if (config.attention_softcap <= 0.0f) return scores;
    char cap[32];
    std::snprintf(cap, sizeof cap, "%g", static_cast<double>(config.attention_softcap));
    return std::string(cap) + "·tanh(" + scores + " / " + cap + ")";
}

}  // namespace attnlab::gui
