// The constant multipliers of the residual stream (ModelConfig::embedding_multiplier, residual_multiplier; Granite's):
// the token embeddings times m_emb as they enter the stream, and each sublayer's output times m as it joins it,
// y = x + m·Sublayer(…). The one reader of those two switches: the embedding step's scale and formula, the residual
// add's step, their explanation kinds and the numbers those texts show.
#pragma once

#include "forward/mechanisms/mechanism.h"

#include <string>

namespace attnlab {

class StreamMultiplierMechanism {
public:
    explicit StreamMultiplierMechanism(const ModelConfig& config)
        : embedding_(config.embedding_multiplier), residual_(config.residual_multiplier) {}

    bool scales_embeddings() const { return embedding_ != 1.0f; }
    bool scales_residual() const { return residual_ != 1.0f; }
    // What the token embedding step multiplies each row by besides √C (1 when it does not), and the part its formula
    // adds: "·m_emb", or "".
    float embedding_multiplier() const { return embedding_; }
    float residual_multiplier() const { return residual_; }  // m: 1 when the adds do not scale
    std::string embedding_formula_part() const { return scales_embeddings() ? "·m_emb" : ""; }
    std::string embedding_variant() const;  // the step's variant: "embedding_multiplier=12", or ""
    // What the residual add's formula puts before the sublayer's output: "m·", or "".
    std::string residual_formula_part() const { return scales_residual() ? "m·" : ""; }
    // The constants as the formulas name them, for a reader: "m_emb = 12", "m = 0.22"; "" for one that is 1.
    std::string embedding_constant() const;
    std::string residual_constant() const;
    // The residual add y = x + m·s over the stream x and the sublayer's output s, both (N, C) -> (N, C), as `id`.
    // `branch` is how the norm mechanism writes the sublayer's output ("Sublayer(RMSNorm(x))"); the formula is
    // "x + " + residual_formula_part() + branch. Its backward: dL/dx = dL/dy, dL/ds = m·dL/dy.
    PlacedStep residual_step(const StepId& id, std::string title, const std::string& branch, const StepId& x,
                             const StepId& s) const;

    // Explanation kinds of the scaled steps: "embed_multiplied" (the token embeddings), "residual_multiplied".
    static const char* embedding_kind() { return "embed_multiplied"; }
    static const char* residual_kind() { return "residual_multiplied"; }
    // "embeddings ×3, each sublayer's write ×0.4" (only those that are not 1), "" without either.
    std::string describe() const;
    // The constants the texts show: "m_emb" and "m_res".
    ExplainNumbers numbers() const;
    // The backward kinds of a token embedding or residual add step (read from its variant, as it was built):
    // "embedding_multiplied" or "embedding", "residual_multiplied" or "residual".
    static const char* embedding_backward_kind(const Step& step);
    static const char* residual_backward_kind(const Step& step);

private:
    float embedding_;
    float residual_;
};

}  // namespace attnlab
