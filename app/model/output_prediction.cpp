// One position's bars: p at T and at T = 1, entropy, the following token's p and rank.
#include "output_prediction.h"

#include <cmath>
#include <cstdio>

namespace attnlab::gui {

float PositionPrediction::kept_p(size_t rank) const {
    return rank < static_cast<size_t>(n_kept) && rank < top.size() && mass > 0.0
               ? static_cast<float>(static_cast<double>(top[rank].p) / mass)
               : 0.0f;
}

double PositionPrediction::kept_share_of_top_k() const { return mass_top_k > 0.0 ? mass / mass_top_k : 0.0; }

PositionPrediction predict_row(ConstRowVecMap logits, const SamplingOptions& options, bool sampling, int next,
                               int n_listed) {
    PositionPrediction out;
    const SamplingOptions cut = sampling ? options : SamplingOptions{options.temperature, 0, 1.0f};
    auto set = sampling_set(logits, cut, n_listed);
    if (!set) {
        out.error = set.error().message;
        return out;
    }
    out.n_top_k = set->n_top_k;
    out.n_kept = set->n_kept;
    out.mass = set->mass;
    out.mass_top_k = set->mass;
    if (sampling && options.top_p < 1.0f) {  // the set before top p: what top p's share is taken of
        SamplingOptions top_k_only = options;
        top_k_only.top_p = 1.0f;
        if (auto before = sampling_set(logits, top_k_only, 0)) out.mass_top_k = before->mass;
    }
    // p at T and at T = 1, in double: entropy, the next token's p and rank, and the listed tokens' p at T = 1.
    const double max_logit = static_cast<double>(logits.maxCoeff()), T = static_cast<double>(options.temperature);
    double sum_t = 0.0, sum_1 = 0.0;
    for (Eigen::Index j = 0; j < logits.size(); ++j) {
        const double d = static_cast<double>(logits[j]) - max_logit;
        sum_t += std::exp(d / T);
        sum_1 += std::exp(d);
    }
    const auto p_at = [&](int id, double t, double sum) {
        return std::exp((static_cast<double>(logits[id]) - max_logit) / t) / sum;
    };
    double entropy = 0.0;
    for (Eigen::Index j = 0; j < logits.size(); ++j)
        if (const double p = p_at(static_cast<int>(j), T, sum_t); p > 0.0) entropy -= p * std::log2(p);
    out.entropy_bits = static_cast<float>(entropy);
    for (const RankedToken& t : set->ranked) out.top.push_back({t.id, t.p, static_cast<float>(p_at(t.id, 1.0, sum_1))});
    if (next >= 0 && next < logits.size()) {
        out.next = next;
        out.next_p = static_cast<float>(p_at(next, T, sum_t));
        out.next_rank = 1;
        for (Eigen::Index j = 0; j < logits.size(); ++j)
            if (logits[j] > logits[next]) ++out.next_rank;
    }
    return out;
}

std::string percent_text(double p) {
    const double percent = 100.0 * p;
    char text[32];
    if (percent == 0.0)
        std::snprintf(text, sizeof text, "0%%");
    else if (percent >= 9.995)  // "100.0%", "42.3%", and "10.0%" for what two decimals would round to "10.00%"
        std::snprintf(text, sizeof text, "%.1f%%", percent);
    else if (percent >= 1.0)  // "4.23%"
        std::snprintf(text, sizeof text, "%.2f%%", percent);
    else if (percent >= 1e-4)  // two significant digits: "0.42%", "0.0021%"
        std::snprintf(text, sizeof text, "%.*f%%", 1 - static_cast<int>(std::floor(std::log10(percent))), percent);
    else  // "3.1e-07%": fewer zeros than digits would take
        std::snprintf(text, sizeof text, "%.1e%%", percent);
    return text;
}

bool temperatures_differ(const OutputViewState& output) { return output.temperature != 1.0f; }

std::string stepper_line_formula(const StepRecord& record, const std::string& formula, const OutputViewState& output) {
    if (record.id.kind != StepKind::probs || !temperatures_differ(output)) return formula;
    return formula + "  (T = 1)";
}

}  // namespace attnlab::gui
