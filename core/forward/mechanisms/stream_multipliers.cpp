#include "forward/mechanisms/stream_multipliers.h"

#include "ops/elementwise.h"

#include <cstdio>

namespace attnlab {

namespace {

Tensor times(Tensor t, float m) {
    for (float& v : t.data) v *= m;
    return t;
}

std::string multiplier_variant(const char* name, float m) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s=%.9g", name, static_cast<double>(m));
    return buf;
}

std::string constant_text(const char* name, float m) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s = %g", name, static_cast<double>(m));
    return buf;
}

}  // namespace

std::string StreamMultiplierMechanism::embedding_variant() const {
    return scales_embeddings() ? multiplier_variant("embedding_multiplier", embedding_) : "";
}

std::string StreamMultiplierMechanism::embedding_constant() const {
    return scales_embeddings() ? constant_text("m_emb", embedding_) : "";
}

std::string StreamMultiplierMechanism::residual_constant() const {
    return scales_residual() ? constant_text("m", residual_) : "";
}

PlacedStep StreamMultiplierMechanism::residual_step(const StepId& id, std::string title, const std::string& branch,
                                                    const StepId& x, const StepId& s) const {
    const float m = residual_;
    if (!scales_residual())
        return {id,
                {std::move(title),
                 "x + " + residual_formula_part() + branch,
                 {x, s},
                 {},
                 {},
                 "",
                 [](const StepContext& ctx) {
                     int64_t non_finite = 0;
                     Tensor y = elementwise_sum(ctx.input(0), ctx.input(1), non_finite);  // (N, C)
                     return StepOutput{std::move(y), {}, non_finite};
                 },
                 [](const BackwardContext& b) { return InputGrads{b.d_output, b.d_output}; }}};
    return {id,
            {std::move(title),
             "x + " + residual_formula_part() + branch,
             {x, s},
             {},
             {},
             multiplier_variant("residual_multiplier", m),
             [m](const StepContext& ctx) {  // y = x + m·s  (N, C)
                 int64_t non_finite = 0;
                 Tensor y = elementwise_sum(ctx.input(0), times(ctx.input(1), m), non_finite);
                 return StepOutput{std::move(y), {}, non_finite};
             },
             [m](const BackwardContext& b) { return InputGrads{b.d_output, times(b.d_output, m)}; }}};
}

const char* StreamMultiplierMechanism::embedding_backward_kind(const Step& step) {
    return step.variant.find("embedding_multiplier=") != std::string::npos ? "embedding_multiplied" : "embedding";
}

const char* StreamMultiplierMechanism::residual_backward_kind(const Step& step) {
    return step.variant.find("residual_multiplier=") != std::string::npos ? "residual_multiplied" : "residual";
}

std::string StreamMultiplierMechanism::describe() const {
    char buf[96] = "";
    if (scales_embeddings() && scales_residual())
        std::snprintf(buf, sizeof buf, "embeddings ×%g, each sublayer's write ×%g", static_cast<double>(embedding_),
                      static_cast<double>(residual_));
    else if (scales_embeddings())
        std::snprintf(buf, sizeof buf, "embeddings ×%g", static_cast<double>(embedding_));
    else if (scales_residual())
        std::snprintf(buf, sizeof buf, "each sublayer's write ×%g", static_cast<double>(residual_));
    return buf;
}

ExplainNumbers StreamMultiplierMechanism::numbers() const { return {{"m_emb", embedding_}, {"m_res", residual_}}; }

}  // namespace attnlab
