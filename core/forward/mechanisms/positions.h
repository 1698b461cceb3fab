// The positional mechanism (ModelConfig::positional, sinusoid_layout, rope): how a model knows where a token is.
// sinusoidal (the paper's sines and cosines, interleaved or in halves) and learned (a table P[pos]) are added to
// the embeddings; rotary (RoPE) turns Q and K inside every attention; none gives no position at all. The one
// reader of those switches.
#pragma once

#include "forward/mechanisms/mechanism.h"
#include "param_names.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab {

class PositionMechanism {
public:
    explicit PositionMechanism(const ModelConfig& config);

    Positional scheme() const { return scheme_; }
    bool added_to_embeddings() const { return scheme_ == Positional::sinusoidal || scheme_ == Positional::learned; }
    // Whether some layer turns Q and K (rotary), and whether `layer` does (not a NoPE layer).
    bool rotates_queries_and_keys() const { return scheme_ == Positional::rotary; }
    bool rotates_at(int layer) const { return rope_at(layer).has_value(); }
    // The positions a stack's embeddings add, (B·T, C), which the step reads off the ids `ids_control` names;
    // nullopt for rotary and none.
    std::optional<PlacedStep> embedding_step(Stack stack, const EmbeddingParams& params, Control ids_control) const;
    // RoPE's turn of Q or K (stage q_rot, k_rot) over its input (B·H, T, D), rows from the step's first row on,
    // with the site's layer's RoPE (a local layer's base; layer_variants.h). Only where rotates_at(site.layer).
    PlacedStep rotation_step(const AttentionSite& site, AttentionStage stage, const StepId& input) const;
    // Rows of one head (N, D), every one at `position`, turned as `layer` turns them: by its RoPE (a local layer's
    // base), not at all in a NoPE layer or without rotary positions.
    Tensor rotated_at(const Tensor& rows, int64_t position, int layer) const;
    // What "+ PE" a stack's embedding sum names, and its title's part: "" when nothing is added.
    const char* sum_formula_part() const { return added_to_embeddings() ? " + PE" : ""; }
    const char* sum_title_part() const { return added_to_embeddings() ? " + position" : ""; }

    // Explanation kinds: the token embedding's unless it is scaled ("embed_rotary": positions come later,
    // "embed_score_bias": as a bias on the scores, or "embed"), and the position step's (pos_learned,
    // pos_sinusoidal, pos_sinusoidal_halves).
    const char* token_embedding_kind() const;
    const char* position_kind() const;
    static const char* rotation_backward_kind() { return "rotary"; }  // of the q_rot and k_rot steps' backward
    // Numbers of row `pos` of the position step's output (N, C), at the focused column (else column 2 of a
    // sinusoid, 0 of a table): a sinusoid's pair i with its columns ("two_i", "two_i1", "sin_col", "cos_col"),
    // "angle", "sin" and "cos"; a learned table's "dim", "value" and the row's "norm".
    ExplainNumbers position_numbers(const Tensor& positions, int64_t pos, std::optional<int64_t> focused_col) const;
    // "sinusoidal positions (sines, then cosines)", "rotary positions (θ 500000, llama3 ×8)", …
    std::string describe() const;
    // What the Positional view says this model's encoding is, in English for the view to translate
    // (app/gui/i18n.cpp): the paper's formula, a learned table, RoPE (with NoPE layers: "%s" stands for
    // nope_layers()), ALiBi's slopes, T5's buckets or nothing.
    const char* encoding_text() const;
    // The layers a rotary model leaves unrotated, "3" or "3, 7"; "" when every layer rotates or none does.
    std::string nope_layers() const;

private:
    const std::optional<RopeConfig>& rope_at(int layer) const;

    Positional scheme_;
    SinusoidLayout layout_;
    RopeConfig rope_;
    std::vector<std::optional<RopeConfig>> layer_ropes_;  // rope_of_layer of each layer of the longer stack
    int d_model_, d_head_;
};

// A step variant of RoPE's θ and scaling (Step::variant).
std::string rope_variant(const RopeConfig& rope);

}  // namespace attnlab
