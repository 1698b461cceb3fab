// The Output view ranks again only the rows an edit changed (issue 38, D6: after a middle-token edit of GPT-2 small
// over 990 tokens the view ranked every row of 50,257 logits again, 2.8 s with no card), with the bars a full
// ranking gives.
#include "prediction_rows.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

// Logits (n, 6) whose row r peaks at token r % 6.
Tensor logits_rows(int64_t n) {
    Tensor t({n, 6});
    for (int64_t r = 0; r < n; ++r)
        for (int64_t j = 0; j < 6; ++j)
            t.data[static_cast<size_t>(r * 6 + j)] = 0.1f * static_cast<float>(j) + (j == r % 6 ? 2.0f : 0.0f);
    return t;
}

// Every row's bars as ranked alone: the same tokens, p and following token's rank.
void check_as_ranked_alone(const PredictionRows& kept, const Tensor& logits, const std::vector<int>& next,
                           const SamplingOptions& o) {
    REQUIRE(kept.rows().size() == static_cast<size_t>(logits.dim(0)));
    for (int64_t r = 0; r < logits.dim(0); ++r) {
        INFO("row " << r);
        const PositionPrediction alone = predict_row(logits.row(r), o, false, next[static_cast<size_t>(r)], 3);
        const PositionPrediction& row = kept.rows()[static_cast<size_t>(r)];
        REQUIRE(row.top.size() == alone.top.size());
        for (size_t k = 0; k < alone.top.size(); ++k) {
            CHECK(row.top[k].id == alone.top[k].id);
            CHECK(row.top[k].p == alone.top[k].p);
        }
        CHECK(row.next == alone.next);
        CHECK(row.next_rank == alone.next_rank);
        CHECK(row.entropy_bits == alone.entropy_bits);
    }
}

}  // namespace

TEST_CASE("the output view's bars rank again only the rows whose logits or next token changed", "[app][output]") {
    const SamplingOptions o{1.0f, 0, 1.0f};
    Tensor logits = logits_rows(8);
    std::vector<int> next = {1, 2, 3, 4, 5, 0, 1, -1};
    PredictionRows rows;
    rows.update(logits, next, o, false, 3);
    CHECK(rows.last_ranked() == 8);
    check_as_ranked_alone(rows, logits, next, o);

    rows.update(logits, next, o, false, 3);
    CHECK(rows.last_ranked() == 0);  // nothing changed

    // An edit from row 5 on (a causal model re-runs the rows from the token it changed).
    for (int64_t r = 5; r < 8; ++r) logits.data[static_cast<size_t>(r * 6)] = 9.0f;
    rows.update(logits, next, o, false, 3);
    CHECK(rows.last_ranked() == 3);
    check_as_ranked_alone(rows, logits, next, o);

    next[1] = 0;  // another token follows position 1: its rank is asked of other logits
    rows.update(logits, next, o, false, 3);
    CHECK(rows.last_ranked() == 1);
    check_as_ranked_alone(rows, logits, next, o);

    // A token appended: one row more, the others as they were.
    Tensor longer = logits_rows(9);
    std::copy(logits.data.begin(), logits.data.end(), longer.data.begin());
    next.back() = 3;
    next.push_back(-1);
    rows.update(longer, next, o, false, 3);
    CHECK(rows.last_ranked() == 2);  // the new row, and the row before it that now has a next token
    check_as_ranked_alone(rows, longer, next, o);

    const SamplingOptions hotter{2.0f, 0, 1.0f};  // another temperature: every row
    rows.update(longer, next, hotter, false, 3);
    CHECK(rows.last_ranked() == 9);
    check_as_ranked_alone(rows, longer, next, hotter);
}

TEST_CASE("rows the caller vouches for are not read again; the others are compared as before", "[app][output]") {
    const SamplingOptions o{1.0f, 0, 1.0f};
    Tensor logits = logits_rows(8);
    std::vector<int> next(8, -1);
    PredictionRows rows;
    rows.update(logits, next, o, false, 3);
    const PositionPrediction row2 = rows.rows()[2];

    // Rows 0-5 vouched for: row 2's change is not seen (not read), row 6's is; a new row 8 is ranked.
    Tensor longer = logits_rows(9);
    std::copy(logits.data.begin(), logits.data.end(), longer.data.begin());
    longer.data[2 * 6] = 9.0f;
    longer.data[6 * 6 + 3] = 9.0f;
    next.push_back(-1);
    rows.update(longer, next, o, false, 3, 6);
    CHECK(rows.last_ranked() == 2);  // rows 6 and 8
    CHECK(row2.top.front().id == 2);
    CHECK(rows.rows()[2].top.front().id == 2);  // not 0, which row 2 now peaks at
    CHECK(rows.rows()[6].top.front().id == 3);

    // Vouching for more rows than the last call had covers only those it had; nothing vouched: row 2 is seen.
    rows.update(longer, next, o, false, 3, 100);
    CHECK(rows.last_ranked() == 0);
    longer.data[2 * 6 + 1] = 8.0f;
    rows.update(longer, next, o, false, 3, 0);
    CHECK(rows.last_ranked() == 1);
    check_as_ranked_alone(rows, longer, next, o);
}
