// The Analysis view's circuits tool, without ImGui: one head's QK circuit (which tokens attend to which) or OV
// circuit (what attending to a token writes, as logits), from its weights alone (core/analysis/head_circuits.h),
// over the sentence's tokens or a typed list, and the whole vocabulary ranked for one of them. Kept between frames
// and recomputed only when a weight tensor is replaced (an edit, a switch, a snapshot) or the choice changes. The
// CLI's qk and ov commands compute their matrices and rankings with the same two functions.
#pragma once

#include "analysis/head_circuits.h"
#include "analysis/token_ranking.h"
#include "model.h"
#include "stepper.h"
#include "view_state.h"

#include <string>
#include <vector>

namespace attnlab::gui {

// One head's circuit over a list of tokens, square: QK the list's scores against itself, (n, n) queries × keys;
// OV the logits of the list's own tokens, (n, n) attended-to × output token (columns `ids` of the (n, V) rows).
Result<Mat> circuit_matrix(const ModelConfig& config, const Weights& weights, const HeadRef& head, bool ov,
                           const std::vector<int>& ids, int offset);

// One token against the whole vocabulary: QK the k keys its query scores highest (`bottom` empty); OV the k output
// tokens attending to it raises most (`top`) and lowers most (`bottom`).
struct CircuitRanking {
    std::vector<TokenScore> top, bottom;
};
Result<CircuitRanking> circuit_ranking(const ModelConfig& config, const Weights& weights, const HeadRef& head, bool ov,
                                       int id, int offset, int k);

// The stack whose head the choice names: the encoder's when chosen in a model with both, else the one it has.
Stack circuit_stack(const ModelConfig& config, const CircuitChoice& choice);
// That stack's vocabulary.
const std::optional<Vocab>& stack_vocab(const Model& model, Stack stack);

class CircuitsTool {
public:
    static constexpr size_t kMaxTokens = 24;  // rows and columns of the matrix: more are unreadable
    static constexpr int kRanked = 12;        // tokens in each whole-vocabulary list

    // Recomputes when a weight tensor of `stepper` was replaced, or the choice (circuit, stack, layer, head, offset,
    // tokens) or the sentence changed; true then. The choice's layer and head must be in range (the picker keeps
    // them there). `model` gives the vocabularies.
    bool update(const Stepper& stepper, const Model& model, const CircuitChoice& choice);

    const HeadRef& head() const { return head_; }
    bool ov() const { return ov_; }
    // The typed tokens, or the sentence's, each once, at most kMaxTokens; and the first typed word that is not a
    // token of the head's vocabulary (those are left out), or empty.
    const std::vector<int>& ids() const { return ids_; }
    const std::string& unknown() const { return unknown_; }
    const Result<Mat>& matrix() const { return matrix_; }  // circuit_matrix of ids(); an error names why not
    float range() const { return range_; }                 // the largest |value| (at least 1e-6)
    uint64_t version() const { return version_; }          // bumps on every recompute
    // The matrix's rows and columns: ids() as the head's vocabulary writes them, the columns of OV as the output
    // vocabulary does.
    const std::vector<std::string>& row_labels() const { return row_labels_; }
    const std::vector<std::string>& col_labels() const { return col_labels_; }

    // circuit_ranking of ids()[focus] with kRanked tokens, computed once per token until the next recompute.
    const CircuitRanking& ranking(const Stepper& stepper, int focus);

private:
    std::vector<const Tensor*> weights_;  // the tensors the numbers came from: an edit replaces its tensor
    bool ov_ = false;
    HeadRef head_{};
    std::string typed_;
    std::vector<int> sentence_;
    int offset_ = 0;
    std::vector<int> ids_;
    std::string unknown_;
    Result<Mat> matrix_ = Error{""};
    float range_ = 1.0f;
    uint64_t version_ = 0;
    std::vector<std::string> row_labels_, col_labels_;
    int ranked_id_ = -1;
    CircuitRanking ranking_;
};

}  // namespace attnlab::gui
