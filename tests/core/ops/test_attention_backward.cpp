// The attention stages' backwards, chained through softmax and a mask, against central finite differences
// (grad_check.h); and a batch of two sequences side by side against each alone.
#include "grad_check.h"
#include "ops/attention.h"
#include "ops/masks.h"
#include "ops/softmax.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace attnlab;
using namespace attnlab::grad_check;

TEST_CASE("the attention stages' backwards, chained, match finite differences through a mask", "[grad]") {
    const int64_t Tq = 4, Tk = 5, D = 3;  // all different, so a transposed product cannot pass
    Tensor q = random_tensor({1, Tq, D}, 51);
    Tensor k = random_tensor({1, Tk, D}, 52);
    Tensor v = random_tensor({1, Tk, D}, 53);
    // A causal-style mask over the first four keys; key 4 (a pad) is masked for every query,
    // and query 3 sees nothing at all.
    Tensor mask({Tq, Tk});
    mask.data = {1, 0, 0, 0, 0,  //
                 1, 1, 0, 0, 0,  //
                 1, 1, 1, 1, 0,  //
                 0, 0, 0, 0, 0};
    const Tensor r = random_tensor({1, Tq, D}, 54);
    const std::set<int> no_ablation;
    auto weights_of = [&] {  // weights = softmax(q·kᵀ/√D + mask)   (1, Tq, Tk)
        return softmax_rows(mask_scores(scale_scores(attention_scores(q, k), static_cast<float>(D)), mask));
    };
    auto loss = [&] { return weighted_sum(r, attention_context(weights_of(), v, no_ablation)); };

    const Tensor w = weights_of();
    for (int64_t i = 0; i < Tq * Tk; ++i)
        if (mask.data[static_cast<size_t>(i)] == 0.0f) REQUIRE(w.data[static_cast<size_t>(i)] == 0.0f);
    // The steps' backwards in reverse: ·V, softmax, mask, ÷√D (the same factor), QKᵀ.
    const ContextGrads context = attention_context_backward(w, v, r, no_ablation);
    Tensor d_scaled = mask_scores_backward(softmax_rows_backward(w, context.d_weights), mask);
    scale_scores_in_place(d_scaled, static_cast<float>(D));
    const ScoresGrads scores = attention_scores_backward(q, k, d_scaled);
    REQUIRE(scores.dq.shape == q.shape);
    REQUIRE(scores.dk.shape == k.shape);
    REQUIRE(context.dv.shape == v.shape);
    check_against_fd(q, scores.dq, loss, "dq");
    check_against_fd(k, scores.dk, loss, "dk");
    check_against_fd(v, context.dv, loss, "dv");

    // Masked entries pass nothing: the pad key gets no gradient, nor does the blind query;
    // query 0 attends to key 0 alone, so its softmax is flat and its dq is 0 too.
    CHECK(scores.dk.slice(0).row(4).isZero(0.0f));
    CHECK(context.dv.slice(0).row(4).isZero(0.0f));
    CHECK(scores.dq.slice(0).row(3).isZero(0.0f));
    CHECK(scores.dq.slice(0).row(0).isZero(0.0f));
    CHECK(max_abs(scores.dq) > 0.05);
}

TEST_CASE("two sequences side by side give each sequence's own attention, mask and gradients", "[grad]") {
    // A batch of B = 2 is B·H heads: every stage of the pair must equal each sequence run alone.
    const int64_t H = 2, T = 3, C = 4;
    const Tensor x0 = random_tensor({T, C}, 61), x1 = random_tensor({T, C}, 62);
    Tensor both({2 * T, C});
    both.matrix().topRows(T) = x0.matrix();
    both.matrix().bottomRows(T) = x1.matrix();
    const Tensor keys0 = key_padding({5, 6, 0}, 0), keys1 = key_padding({5, 6, 7}, 0);
    Tensor keys({2 * T});
    std::copy_n(keys0.data.data(), T, keys.data.data());
    std::copy_n(keys1.data.data(), T, keys.data.data() + T);
    const Tensor causal = look_ahead_mask(T);
    auto weights = [&](const Tensor& x, const Tensor& m, int64_t batch) {
        const Tensor heads = split_heads(x, H, batch);
        return softmax_rows(mask_scores(scale_scores(attention_scores(heads, heads), 2.0f), m));
    };
    const Tensor alone0 = weights(x0, combine_masks(T, keys0, &causal), 1);
    const Tensor alone1 = weights(x1, combine_masks(T, keys1, &causal), 1);
    const Tensor mask = combine_masks(T, keys, &causal, 2);  // (2·T, T)
    REQUIRE(mask.shape == Shape{2 * T, T});
    const Tensor together = weights(both, mask, 2);  // (2·H, T, T)
    REQUIRE(together.shape == Shape{2 * H, T, T});
    for (int64_t h = 0; h < H; ++h) {
        CHECK((together.slice(h) - alone0.slice(h)).cwiseAbs().maxCoeff() == 0.0f);
        CHECK((together.slice(H + h) - alone1.slice(h)).cwiseAbs().maxCoeff() == 0.0f);
    }
    CHECK(merge_heads(split_heads(both, H, 2), 2).data == both.data);
    // Sequence 0's key 2 is padding: masked in its heads, not in sequence 1's.
    CHECK(together.slice(0)(2, 2) == 0.0f);
    CHECK(together.slice(H)(2, 2) > 0.0f);
    const Tensor d = random_tensor({2 * H, T, T}, 63);
    const Tensor d_masked = mask_scores_backward(d, mask);
    CHECK(d_masked.slice(0)(2, 2) == 0.0f);
    CHECK(d_masked.slice(H)(2, 2) == d.slice(H)(2, 2));
    // An ablated head is head h of every sequence.
    const Tensor v = split_heads(both, H, 2);
    const Tensor ctx = attention_context(together, v, {1}, 2);
    CHECK(ctx.slice(1).isZero(0.0f));
    CHECK(ctx.slice(H + 1).isZero(0.0f));
    CHECK(!ctx.slice(H).isZero(0.0f));
}
