// The Output view's sampling words against the numbers: with top k and top p both on, top p is taken of the
// top-k set rescaled to 100%, and the caption and a cut token's note give that share, the one top p was
// compared with (not the share of all of p the "p → p′" bars start from).
#include "panels/sampling_text.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

// A flat-ish row over V = 40 tokens, most probable first: the top 5 hold little of p at T = 2.
RowVec falling_logits() {
    RowVec logits(40);
    for (Eigen::Index j = 0; j < logits.size(); ++j) logits[j] = 4.0f - 0.11f * static_cast<float>(j);
    return logits;
}

// softmax(logits / T) in double, by hand.
std::vector<double> softmax_at(const RowVec& logits, double T) {
    std::vector<double> p(static_cast<size_t>(logits.size()));
    for (size_t j = 0; j < p.size(); ++j)
        p[j] = std::exp(static_cast<double>(logits[static_cast<Eigen::Index>(j)]) / T);
    const double sum = std::accumulate(p.begin(), p.end(), 0.0);
    for (double& v : p) v /= sum;
    return p;
}

}  // namespace

TEST_CASE("with top k and top p both on, the words give the share of the top k that top p was compared with",
          "[output][sampling]") {
    const RowVec logits = falling_logits();
    const SamplingOptions options{2.0f, 5, 0.6f};
    const PositionPrediction pred = predict_row(ConstRowVecMap(logits.data(), logits.size()), options, true, -1, 10);
    // By hand: the logits fall with the id, so ranks are ids; top k keeps ids 0..4, top p the fewest of them
    // whose share of the five reaches 0.6.
    const std::vector<double> p = softmax_at(logits, 2.0);
    const double top_k_mass = std::accumulate(p.begin(), p.begin() + 5, 0.0);
    int kept = 0;
    double kept_mass = 0.0;
    while (kept < 5 && (kept == 0 || kept_mass / top_k_mass < 0.6)) kept_mass += p[static_cast<size_t>(kept++)];
    REQUIRE(pred.n_top_k == 5);
    REQUIRE(pred.n_kept == kept);
    REQUIRE(kept < 5);  // top p did cut some of the top k
    const double share = kept_mass / top_k_mass;
    REQUIRE(share >= 0.6);
    REQUIRE(kept_mass < 0.3);  // of all of p the kept ones hold far less than top p: the words must say "of the top k"
    CHECK(pred.mass_top_k == Approx(top_k_mass).epsilon(1e-6));
    CHECK(pred.kept_share_of_top_k() == Approx(share).epsilon(1e-6));

    for (const bool korean : {false, true}) {
        INFO((korean ? "Korean" : "English"));
        const std::string note = top_p_cut_note(pred, options, korean);
        CHECK_THAT(note, Catch::Contains(percent_text(share)));  // what the kept ones hold of the top k
        CHECK_THAT(note, Catch::Contains("0.60"));               // the top p it reached
        CHECK_THAT(note, Catch::Contains(std::to_string(pred.n_kept)));
        const std::string caption = sampling_caption(pred, options, korean);
        CHECK_THAT(caption, Catch::Contains(percent_text(kept_mass)));  // of all of p, as the bars' p
        CHECK_THAT(caption, Catch::Contains(percent_text(share)));      // of the top k, as top p counts
    }
}

TEST_CASE("without top k, top p's share is of all of p and the words say only that", "[output][sampling]") {
    const RowVec logits = falling_logits();
    const SamplingOptions options{0.5f, 0, 0.5f};
    const PositionPrediction pred = predict_row(ConstRowVecMap(logits.data(), logits.size()), options, true, -1, 10);
    REQUIRE(pred.n_kept < pred.n_top_k);
    CHECK(pred.mass_top_k == Approx(1.0).epsilon(1e-9));
    const std::string note = top_p_cut_note(pred, options, false);
    CHECK_THAT(note, Catch::Contains(percent_text(pred.mass)));
    CHECK_THAT(note, !Catch::Contains("top k"));
}
