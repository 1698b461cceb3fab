// The Output view's bars for every position, kept between frames: when the logits change, only the rows whose
// logits or following token changed are ranked again. (A middle-token edit of GPT-2 small over 990 tokens ranked all
// 990 rows of 50,257 logits again, 2.8 s in the frame after the re-run, with no progress card; an edit re-runs only
// the rows from the token it changed, and only those rank again: an appended token ranks one row.)
#pragma once

#include "output_prediction.h"

#include <cstdint>
#include <vector>

namespace attnlab::gui {

class PredictionRows {
public:
    // The bars of each row of `logits` (N, V): predict_row(row r, options, sampling, next[r], n_listed), next[r]
    // the token that follows position r (-1: none). Rows whose logits and next are those of the last call, under
    // the same options, keep their bars. Rows rank in parallel (core/parallel.h). The caller may vouch that the
    // first `rows_kept` rows hold the logits of the last call (Stepper::rows_kept_since); those are not read again
    // (an appended token's (N, V) logits were all fingerprinted, 49M floats, for the one new row).
    const std::vector<PositionPrediction>& update(const Tensor& logits, const std::vector<int>& next,
                                                  const SamplingOptions& options, bool sampling, int n_listed,
                                                  int64_t rows_kept = 0);
    const std::vector<PositionPrediction>& rows() const { return rows_; }
    size_t last_ranked() const { return last_ranked_; }  // rows the last update ranked

private:
    std::vector<PositionPrediction> rows_;
    std::vector<uint64_t> fingerprints_;  // of each row's logits (their bits)
    std::vector<int> next_;
    SamplingOptions options_{0.0f, 0, 0.0f};  // no view asks for T = 0: the first update ranks every row
    bool sampling_ = false;
    int n_listed_ = 0;
    size_t last_ranked_ = 0;
};

}  // namespace attnlab::gui
