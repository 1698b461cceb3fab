// What the Output view's bars show for one position, without ImGui: p = softmax(logits / T) at the
// view's temperature, reduced to the most probable tokens (with the sampling cut while Sample is
// on), each with its p at T = 1 too, the value the stepper's probs step holds. The bars and the
// stepper's line agree at T = 1; at another T each of them says which T it shows.
#pragma once

#include "forward/step_id.h"
#include "sampling.h"
#include "tensor.h"
#include "view_state.h"

#include <string>
#include <vector>

namespace attnlab::gui {

struct Candidate {
    int id = 0;
    float p = 0.0f;     // at T
    float p_t1 = 0.0f;  // at T = 1: what the probs step holds
};

struct PositionPrediction {
    std::vector<Candidate> top;  // the most probable, best first (ties: lower id first)
    // The sampling cut (core's SamplingSet): ranks [0, n_kept) are drawn from, [n_kept, n_top_k)
    // were cut by top-p, the rest by top-k. Without sampling nothing is cut.
    int n_top_k = 0, n_kept = 0;
    double mass = 1.0;        // Σ p over the kept ranks
    double mass_top_k = 1.0;  // Σ p over the top-k ranks: what top p's share is taken of
    std::string error;        // why there are no bars (non-finite logits)
    float entropy_bits = 0.0f;
    int next = -1;  // the token that really follows (teacher forcing), or -1
    float next_p = 0.0f;
    int next_rank = 0;  // 1 = the most probable

    float kept_p(size_t rank) const;  // a kept rank's p renormalised over the kept ones; 0 for a cut rank
    // The kept ranks' share of the top k's p, mass / mass_top_k: the number top p is compared with (≥ top p).
    double kept_share_of_top_k() const;
};

// softmax(logits / T) of one row (V), its `n_listed` most probable tokens, with the sampling cut when
// `sampling`. `next` is the following token's id, or -1.
PositionPrediction predict_row(ConstRowVecMap logits, const SamplingOptions& options, bool sampling, int next,
                               int n_listed);

// A probability as the bars print it, in percent with at least two significant digits, so that p of a
// large vocabulary reads as a number: 0.5 -> "50.0%", 0.0423 -> "4.23%", 2.1e-5 -> "0.0021%", 0 -> "0%".
std::string percent_text(double p);

// Whether the bars are p at another temperature than the probs step's T = 1, so each must name its T.
bool temperatures_differ(const OutputViewState& output);

// A step's formula as the stepper's line shows it: the probs step's with "(T = 1)" after it while the
// Output view's bars show another temperature; any other step's as it is.
std::string stepper_line_formula(const StepRecord& record, const std::string& formula, const OutputViewState& output);

}  // namespace attnlab::gui
