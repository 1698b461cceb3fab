// The Output view's words for the sampling cut, headless so a test reads them: the caption over the large
// bars and the note on a token cut by top p. Top p is taken of the top-k set rescaled to 100%, so these
// name that share (mass / mass_top_k), the number top p was compared with, not the share of all of p.
#pragma once

#include "output_prediction.h"

#include <string>

namespace attnlab::gui {

// "Sampling from 2 tokens holding 4.0% of p …", and, when top p cut some of the top k, on a line of its own,
// what its share is of.
std::string sampling_caption(const PositionPrediction& pred, const SamplingOptions& options, bool korean);

// A bar's tooltip line for a token cut by top p: how much the kept tokens above it hold, and of what.
std::string top_p_cut_note(const PositionPrediction& pred, const SamplingOptions& options, bool korean);

}  // namespace attnlab::gui
