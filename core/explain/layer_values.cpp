// Numbers of the residual adds, LayerNorms, the FFN and the MLM head's layers for the focused token row.
#include "explain/number_format.h"
#include "explain/step_values.h"
#include "forward/mechanisms/feed_forward.h"
#include "forward/mechanisms/norm.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

double fraction(int64_t part, int64_t whole) {
    return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

int64_t count_negative(const Tensor& t) {
    return std::count_if(t.data.begin(), t.data.end(), [](float x) { return x < 0.0f; });
}

void residual_values(const StepSite& s, const Tensor& y, int64_t r, StepValues& v) {  // y = x + sublayer (N, C)
    v.text["x_norm"] = format_number(row_norm(s.input(0).row(r)));
    v.text["s_norm"] = format_number(row_norm(s.input(1).row(r)));
    v.text["sum_norm"] = format_number(row_norm(y.row(r)));
}

// The hidden row's most negative and most positive entries, before and after the activation.
void activation_values(const StepSite& s, const Tensor& a, int64_t r, StepValues& v) {  // a, h (N, F)
    const auto h = s.input(0).row(r);
    Eigen::Index lo = 0, hi = 0;
    h.minCoeff(&lo);
    h.maxCoeff(&hi);
    v.text["h_min"] = format_number(h(lo));
    v.text["a_min"] = format_number(a.row(r)(lo));
    v.text["h_max"] = format_number(h(hi));
    v.text["a_max"] = format_number(a.row(r)(hi));
    const int64_t zeros = std::count(a.data.begin(), a.data.end(), 0.0f);
    v.text["count"] = format_count(a.numel());
    v.text["zeros"] = format_count(zeros);
    v.text["zero_pct"] = format_percent(fraction(zeros, a.numel()));
    v.text["neg_pct"] = format_percent(fraction(count_negative(a), a.numel()));
}

// The router's row: its largest score and which expert has it.
void router_values(const Tensor& scores, int64_t r, StepValues& v) {  // (N, E)
    Eigen::Index best = 0;
    v.text["top_score"] = format_number(scores.row(r).maxCoeff(&best));
    v.text["top_expert"] = std::to_string(best);
}

// The row's chosen experts with their weights, largest first: "3 (0.52), 0 (0.31)", and the weights' sum.
void routing_values(const Tensor& w, int64_t r, StepValues& v) {  // (N, E)
    std::vector<std::pair<float, int>> chosen;
    for (int64_t e = 0; e < w.dim(1); ++e)
        if (w.row(r)(e) != 0.0f) chosen.push_back({w.row(r)(e), static_cast<int>(e)});
    std::sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string list;
    for (const auto& [weight, e] : chosen)
        list += (list.empty() ? "" : ", ") + std::to_string(e) + " (" + format_number(weight) + ")";
    v.text["experts"] = list.empty() ? "—" : list;
    v.text["weight_sum"] = format_number(w.row(r).sum());
}

}  // namespace

void add_norm_values(const StepSite& s, const Tensor& y, int64_t r, StepValues& v) {
    add_numbers(NormMechanism(s.config()).row_numbers(s.input(0).row(r), y.row(r)), v);
}

void add_layer_values(const StepSite& s, StepValues& v) {
    const StepId& id = s.id();
    const Tensor& y = *s.output();  // (N, C) or (N, F)
    const int64_t r = s.row(y.dim(0));
    v.text["row"] = std::to_string(r);
    v.text["token"] = s.row_label(r);
    v.text["shape"] = shape_string(y.shape);
    v.text["in_shape"] = shape_string(s.input(0).shape);
    switch (id.kind) {
        case StepKind::residual: return residual_values(s, y, r, v);
        case StepKind::embedding_norm:
        case StepKind::norm:
        case StepKind::post_norm:
        case StepKind::head_norm: return add_norm_values(s, y, r, v);
        case StepKind::head_transform:  // t = x·W_tᵀ + b_t  (N, C)
            v.text["in_norm"] = format_number(row_norm(s.input(0).row(r)));
            v.text["norm"] = format_number(row_norm(y.row(r)));
            return;
        case StepKind::head_activation: return activation_values(s, y, r, v);
        case StepKind::ffn:
            switch (id.part) {
                case FfnPart::hidden:
                case FfnPart::gate:
                case FfnPart::up: v.text["neg_pct"] = format_percent(fraction(count_negative(y), y.numel())); return;
                case FfnPart::activation: return activation_values(s, y, r, v);
                case FfnPart::gated:  // h = a ⊙ u
                    return add_numbers(
                        FeedForwardMechanism(s.config()).gate_numbers(s.input(0).row(r), s.input(1).row(r), y.row(r)),
                        v);
                case FfnPart::out: v.text["norm"] = format_number(row_norm(y.row(r))); return;
                case FfnPart::router: return router_values(y, r, v);
                case FfnPart::routing: return routing_values(y, r, v);
            }
            return;
        default: return;
    }
}

}  // namespace attnlab
