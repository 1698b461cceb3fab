#include "forward/mechanisms/soft_cap.h"

#include <cmath>
#include <cstdio>

namespace attnlab {

Tensor soft_cap(Tensor x, float c) {
    float* p = x.data.data();
    for (int64_t i = 0, n = x.numel(); i < n; ++i) p[i] = c * std::tanh(p[i] / c);  // −∞ stays −c: no mask yet
    return x;
}

Tensor soft_cap_backward(const Tensor& y, Tensor dy, float c) {
    const float* py = y.data.data();
    float* d = dy.data.data();
    for (int64_t i = 0, n = dy.numel(); i < n; ++i) {
        const float t = py[i] / c;  // tanh(x/c)
        d[i] *= 1.0f - t * t;
    }
    return dy;
}

namespace {

std::string cap_variant(float c) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "cap=%.9g", static_cast<double>(c));
    return buf;
}

Step cap_step(std::string title, std::string formula, const StepId& input, float c) {
    return {std::move(title),
            std::move(formula),
            {input},
            {},
            {},
            cap_variant(c),
            [c](const StepContext& ctx) { return StepOutput{soft_cap(own_first_input(ctx), c), {}}; },
            [c](const BackwardContext& b) { return InputGrads{soft_cap_backward(b.output(), b.d_output, c)}; }};
}

}  // namespace

PlacedStep SoftCapMechanism::scores_step(const AttentionSite& site, const StepId& scores) const {
    return {StepId::attention_at(site, AttentionStage::capped),
            cap_step("Soft-cap the scores", "capped = c·tanh(scaled / c)", scores, scores_cap_)};
}

PlacedStep SoftCapMechanism::logits_step(const StepId& logits, const StepId& id) const {
    return {id, cap_step("Soft-cap the logits", "capped = c·tanh(logits / c)", logits, logits_cap_)};
}

ExplainNumbers SoftCapMechanism::numbers(float cap, float x, float y, RowRef x_row, RowRef y_row) const {
    return {{"cap", cap},
            {"before", x},
            {"after", y},
            {"row_max_before", x_row.maxCoeff()},
            {"row_max_after", y_row.maxCoeff()}};
}

StepId final_logits_of(const ModelConfig& config) {
    return StepId::head(config.logit_softcap > 0.0f ? StepKind::capped_logits : StepKind::logits, config);
}

}  // namespace attnlab
