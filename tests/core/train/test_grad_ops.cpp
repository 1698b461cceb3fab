// Every backward in train/grad_ops against central finite differences of the float forwards
// in core/ops, through the reference loss L = Σ r ⊙ f(x) (summed in double) with a fixed random r.
#include "ops/activation.h"
#include "ops/attention.h"
#include "ops/layer_norm.h"
#include "ops/masks.h"
#include "ops/linear.h"
#include "ops/softmax.h"
#include "train/grad_ops.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>

using namespace attnlab;

namespace {

// Central differences on float inputs: a step of 1e-3 on values of order 1 keeps the truncation
// error (~h²·f'''/6) near 1e-7 and the float rounding of the outputs a perturbation touches
// (~√k·6e-8/2h) near 1e-4, both well inside the tolerance below.
constexpr float kStep = 1e-3f;
constexpr double kAbsTol = 1e-3;
constexpr double kRelTol = 1e-2;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

Tensor random_tensor(Shape shape, uint32_t seed, float stddev = 1.0f, float mean = 0.0f) {
    Tensor t(std::move(shape));
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(mean, stddev);
    for (float& x : t.data) x = normal(rng);
    return t;
}

// Σ r ⊙ y, in double.
double weighted_sum(const Tensor& r, const Tensor& y) {
    REQUIRE(r.shape == y.shape);
    double s = 0.0;
    for (size_t i = 0; i < y.data.size(); ++i) s += static_cast<double>(r.data[i]) * y.data[i];
    return s;
}

double max_abs(const Tensor& t) {
    double m = 0.0;
    for (float x : t.data) m = std::max(m, static_cast<double>(std::abs(x)));
    return m;
}

// Checks analytic = dL/d(input) entry by entry against central differences of loss(), which reads
// `input`. Non-finite entries (−∞ masks) cannot be perturbed; their gradient must be exactly 0.
template <class Loss>
void check_against_fd(Tensor& input, const Tensor& analytic, const Loss& loss, const std::string& what) {
    REQUIRE(analytic.shape == input.shape);
    double worst = 0.0, largest_fd = 0.0;
    for (size_t i = 0; i < input.data.size(); ++i) {
        INFO(what << " entry " << i);
        const float saved = input.data[i];
        if (!std::isfinite(saved)) {
            CHECK(analytic.data[i] == 0.0f);
            continue;
        }
        const float plus = saved + kStep, minus = saved - kStep;
        input.data[i] = plus;
        const double l_plus = loss();
        input.data[i] = minus;
        const double l_minus = loss();
        input.data[i] = saved;
        // Divide by the step actually taken, after float rounding of x ± h.
        const double fd = (l_plus - l_minus) / (static_cast<double>(plus) - static_cast<double>(minus));
        const double err = std::abs(static_cast<double>(analytic.data[i]) - fd);
        INFO("analytic " << analytic.data[i] << ", finite difference " << fd);
        CHECK(err <= kAbsTol + kRelTol * std::abs(fd));
        worst = std::max(worst, err);
        largest_fd = std::max(largest_fd, std::abs(fd));
    }
    INFO(what << ": worst error " << worst);
    CHECK(largest_fd > 0.05);  // the comparison is not vacuous: the loss depends on this input
}

}  // namespace

TEST_CASE("linear_backward matches finite differences on a row range of a packed weight", "[grad]") {
    const int64_t N = 3, C = 4, row_begin = C, n_out = C;  // the K third of a packed in_proj (3C, C)
    Tensor x = random_tensor({N, C}, 1);
    Tensor w = random_tensor({3 * C, C}, 2, 0.5f);
    Tensor b = random_tensor({3 * C}, 3, 0.5f);
    const Tensor r = random_tensor({N, n_out}, 4);
    auto loss = [&] { return weighted_sum(r, linear_forward(x, w, &b, row_begin, n_out)); };

    Tensor dw(w.shape), db(b.shape);
    const Tensor dx = linear_backward(x, w, r, &dw, &db, row_begin);
    REQUIRE(dx.shape == x.shape);
    check_against_fd(x, dx, loss, "dx");
    check_against_fd(w, dw, loss, "dweight");
    check_against_fd(b, db, loss, "dbias");

    // Only rows [C, 2C) of the packed weight (and its bias) receive gradient.
    for (int64_t i = 0; i < 3 * C; ++i) {
        const bool inside = i >= row_begin && i < row_begin + n_out;
        INFO("row " << i);
        CHECK((dw.row(i).array() != 0.0f).any() == inside);
        CHECK((db.data[static_cast<size_t>(i)] != 0.0f) == inside);
    }

    // The accumulators add: a second call doubles them; without accumulators dx is unchanged.
    Tensor dw2 = dw, db2 = db;
    const Tensor dx2 = linear_backward(x, w, r, &dw2, &db2, row_begin);
    for (size_t i = 0; i < dw.data.size(); ++i) CHECK(dw2.data[i] == 2.0f * dw.data[i]);
    for (size_t i = 0; i < db.data.size(); ++i) CHECK(db2.data[i] == 2.0f * db.data[i]);
    CHECK(dx2.data == dx.data);
    CHECK(linear_backward(x, w, r, nullptr, nullptr, row_begin).data == dx.data);
}

TEST_CASE("linear_backward matches finite differences on a whole weight without bias", "[grad]") {
    const int64_t N = 5, n_in = 3, n_out = 6;
    Tensor x = random_tensor({N, n_in}, 11);
    Tensor w = random_tensor({n_out, n_in}, 12, 0.5f);
    const Tensor r = random_tensor({N, n_out}, 13);
    auto loss = [&] { return weighted_sum(r, linear_forward(x, w, nullptr)); };
    Tensor dw(w.shape);
    const Tensor dx = linear_backward(x, w, r, &dw, nullptr);
    check_against_fd(x, dx, loss, "dx");
    check_against_fd(w, dw, loss, "dweight");
}

TEST_CASE("layer_norm_backward matches finite differences for x, gain and bias", "[grad]") {
    const int64_t N = 3, C = 6;
    const float eps = 1e-5f;
    Tensor x = random_tensor({N, C}, 21, 1.0f, 0.5f);
    Tensor gain = random_tensor({C}, 22, 0.3f, 1.0f);
    Tensor bias = random_tensor({C}, 23, 0.3f);
    const Tensor r = random_tensor({N, C}, 24);
    auto loss = [&] { return weighted_sum(r, layer_norm_forward(x, gain, bias, eps)); };

    Tensor dgain(gain.shape), dbias(bias.shape);
    const Tensor dx = layer_norm_backward(x, gain, eps, r, &dgain, &dbias);
    REQUIRE(dx.shape == x.shape);
    check_against_fd(x, dx, loss, "dx");
    check_against_fd(gain, dgain, loss, "dgain");
    check_against_fd(bias, dbias, loss, "dbias");

    // Each row's dx sums to 0: LayerNorm's output ignores a shift of its input row.
    for (int64_t i = 0; i < N; ++i) CHECK(std::abs(dx.row(i).sum()) < 1e-5f);
    // The accumulators add.
    layer_norm_backward(x, gain, eps, r, &dgain, &dbias);
    Tensor dgain1(gain.shape), dbias1(bias.shape);
    layer_norm_backward(x, gain, eps, r, &dgain1, &dbias1);
    for (int64_t j = 0; j < C; ++j) {
        CHECK(dgain.data[static_cast<size_t>(j)] == Approx(2.0f * dgain1.data[static_cast<size_t>(j)]).margin(1e-6));
        CHECK(dbias.data[static_cast<size_t>(j)] == Approx(2.0f * dbias1.data[static_cast<size_t>(j)]).margin(1e-6));
    }
}

TEST_CASE("activation_backward matches finite differences for ReLU, GELU and GELU-tanh", "[grad]") {
    const Activation kinds[] = {Activation::relu, Activation::gelu, Activation::gelu_tanh, Activation::silu};
    for (Activation kind : kinds) {
        SECTION(to_string(kind)) {
            Tensor h = random_tensor({4, 7}, 31, 1.5f);
            // Keep every entry at least 0.05 from ReLU's kink, far more than the step.
            for (float& v : h.data)
                if (std::abs(v) < 0.05f) v = v < 0.0f ? v - 0.05f : v + 0.05f;
            h.data[0] = 4.0f;  // the tails, where GELU ≈ ReLU
            h.data[1] = -4.0f;
            const Tensor r = random_tensor(h.shape, 32);
            auto loss = [&] { return weighted_sum(r, activation_forward(h, kind)); };
            const Tensor dh = activation_backward(h, r, kind);
            check_against_fd(h, dh, loss, "dh");
        }
    }
}

TEST_CASE("ReLU's derivative is 0 at 0, as PyTorch's", "[grad]") {
    Tensor h({5});
    h.data = {0.0f, -0.0f, 2.0f, -2.0f, 1e-30f};
    Tensor dy({5});
    dy.data = {3.0f, 3.0f, 3.0f, 3.0f, 3.0f};
    CHECK(activation_backward(h, dy, Activation::relu).data == FloatBuffer{0.0f, 0.0f, 3.0f, 0.0f, 3.0f});
    // GELU'(0) = Φ(0) = ½ in both forms.
    CHECK(activation_backward(h, dy, Activation::gelu).data[0] == Approx(1.5f).margin(1e-6));
    CHECK(activation_backward(h, dy, Activation::gelu_tanh).data[0] == Approx(1.5f).margin(1e-6));
}

TEST_CASE("softmax_rows_backward matches finite differences with masked entries and a fully masked row", "[grad]") {
    Tensor x = random_tensor({2, 3, 5}, 41, 1.5f);  // rank 3: softmax over the last dim of 6 rows
    x.data[1 * 5 + 2] = kNegInf;                    // row 1: one masked entry
    x.data[3 * 5 + 1] = kNegInf;                    // row 3: two masked entries
    x.data[3 * 5 + 3] = kNegInf;
    for (int j = 0; j < 5; ++j) x.data[static_cast<size_t>(5 * 5 + j)] = kNegInf;  // row 5: fully masked
    const Tensor r = random_tensor(x.shape, 42);
    auto loss = [&] { return weighted_sum(r, softmax_rows(x)); };

    const Tensor y = softmax_rows(x);
    REQUIRE(y.row(5).isZero(0.0f));
    const Tensor dx = softmax_rows_backward(y, r);
    REQUIRE(dx.shape == x.shape);
    check_against_fd(x, dx, loss, "dx");  // masked entries: exactly 0
    CHECK(dx.matrix().row(5).isZero(0.0f));
    CHECK(dx.data[1 * 5 + 2] == 0.0f);
    // Each row's dx sums to 0: softmax ignores a shift of its input row.
    for (int64_t i = 0; i < 6; ++i) CHECK(std::abs(dx.matrix().row(i).sum()) < 1e-5f);

    SECTION("rank 1") {
        Tensor v = random_tensor({7}, 43);
        const Tensor rv = random_tensor({7}, 44);
        auto loss1 = [&] { return weighted_sum(rv, softmax_rows(v)); };
        const Tensor dv = softmax_rows_backward(softmax_rows(v), rv);
        check_against_fd(v, dv, loss1, "dx (rank 1)");
    }
}

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

namespace {

// torch.nn.functional.cross_entropy(..., ignore_index=pad, label_smoothing=ε), written out in double.
double reference_cross_entropy(const Tensor& logits, const std::vector<int>& targets, int pad_id, double eps) {
    const int64_t V = logits.dim(1);
    double total = 0.0;
    int counted = 0;
    for (int64_t i = 0; i < logits.dim(0); ++i) {
        const int t = targets[static_cast<size_t>(i)];
        if (t == pad_id) continue;
        double z = 0.0;
        for (int64_t j = 0; j < V; ++j) z += std::exp(static_cast<double>(logits.row(i)(j)));
        double smooth = 0.0;  // −Σ_j log p_j
        for (int64_t j = 0; j < V; ++j) smooth -= std::log(std::exp(static_cast<double>(logits.row(i)(j))) / z);
        const double nll = -std::log(std::exp(static_cast<double>(logits.row(i)(t))) / z);
        total += (1.0 - eps) * nll + eps * smooth / static_cast<double>(V);
        ++counted;
    }
    return counted ? total / counted : 0.0;
}

}  // namespace

TEST_CASE("cross_entropy_forward_backward: the loss by hand", "[grad]") {
    // Uniform logits: every log p_j = −log V, so the loss is log V whatever ε is.
    Tensor flat({2, 4});
    for (float eps : {0.0f, 0.1f}) {
        const CrossEntropyResult res = cross_entropy_forward_backward(flat, {1, 3}, -1, eps);
        CHECK(res.loss == Approx(std::log(4.0)).epsilon(1e-6));
        CHECK(res.n_counted == 2);
    }

    // Two rows of three classes, hand-computed: −log(e^x_t / Σ e^x).
    Tensor logits({2, 3});
    logits.data = {1.0f, 2.0f, 3.0f, 0.5f, -1.0f, 2.0f};
    const double z0 = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
    const double z1 = std::exp(0.5) + std::exp(-1.0) + std::exp(2.0);
    const double nll0 = std::log(z0) - 3.0, nll1 = std::log(z1) - 0.5;  // targets 2 and 0
    const CrossEntropyResult plain = cross_entropy_forward_backward(logits, {2, 0}, 7, 0.0f);
    CHECK(plain.n_counted == 2);
    CHECK(plain.loss == Approx((nll0 + nll1) / 2).epsilon(1e-6));
    // dlogits = (softmax − one_hot) / 2
    CHECK(plain.dlogits.row(0)(2) == Approx((std::exp(3.0) / z0 - 1.0) / 2).epsilon(1e-5));
    CHECK(plain.dlogits.row(1)(1) == Approx(std::exp(-1.0) / z1 / 2).epsilon(1e-5));

    // ε = 0.1: (1 − ε)·nll + ε·mean_j(−log p_j).
    const double smooth0 = 3 * std::log(z0) - 6.0, smooth1 = 3 * std::log(z1) - 1.5;
    const double expect = (0.9 * nll0 + 0.1 * smooth0 / 3 + 0.9 * nll1 + 0.1 * smooth1 / 3) / 2;
    const CrossEntropyResult smoothed = cross_entropy_forward_backward(logits, {2, 0}, 7, 0.1f);
    CHECK(smoothed.loss == Approx(expect).epsilon(1e-6));
    CHECK(smoothed.loss == Approx(reference_cross_entropy(logits, {2, 0}, 7, 0.1)).epsilon(1e-6));
    CHECK(smoothed.loss > plain.loss);  // this row set is confident enough for smoothing to cost
}

TEST_CASE("cross_entropy_forward_backward ignores pad rows", "[grad]") {
    const int pad = 0;
    const Tensor logits = random_tensor({4, 6}, 61, 2.0f);
    const std::vector<int> targets = {3, pad, 1, pad};
    Tensor counted_rows({2, 6});
    counted_rows.row(0) = logits.row(0);
    counted_rows.row(1) = logits.row(2);
    for (float eps : {0.0f, 0.1f}) {
        INFO("label smoothing " << eps);
        const CrossEntropyResult res = cross_entropy_forward_backward(logits, targets, pad, eps);
        const CrossEntropyResult sub = cross_entropy_forward_backward(counted_rows, {3, 1}, pad, eps);
        CHECK(res.n_counted == 2);
        CHECK(res.loss == Approx(sub.loss).epsilon(1e-6));
        CHECK(res.loss == Approx(reference_cross_entropy(logits, targets, pad, eps)).epsilon(1e-6));
        REQUIRE(res.dlogits.shape == logits.shape);
        CHECK(res.dlogits.row(1).isZero(0.0f));
        CHECK(res.dlogits.row(3).isZero(0.0f));
        CHECK((res.dlogits.row(0).array() == sub.dlogits.row(0).array()).all());
        CHECK((res.dlogits.row(2).array() == sub.dlogits.row(1).array()).all());
        // softmax and the target distribution both sum to 1.
        CHECK(std::abs(res.dlogits.row(0).sum()) < 1e-6f);
    }
    // Nothing counted: loss 0 and no gradient.
    const CrossEntropyResult none = cross_entropy_forward_backward(logits, {pad, pad, pad, pad}, pad, 0.1f);
    CHECK(none.n_counted == 0);
    CHECK(none.loss == 0.0);
    REQUIRE(none.dlogits.shape == logits.shape);
    CHECK(none.dlogits.matrix().isZero(0.0f));
}

TEST_CASE("cross_entropy_forward_backward matches finite differences of its loss", "[grad]") {
    const int pad = 2;
    const std::vector<int> targets = {4, pad, 0, 5, 1};
    for (float eps : {0.0f, 0.1f}) {
        SECTION("label smoothing " + std::to_string(eps)) {
            Tensor logits = random_tensor({5, 7}, 71, 1.5f);
            const CrossEntropyResult res = cross_entropy_forward_backward(logits, targets, pad, eps);
            CHECK(res.n_counted == 4);
            auto loss = [&] { return cross_entropy_forward_backward(logits, targets, pad, eps).loss; };
            check_against_fd(logits, res.dlogits, loss, "dlogits");
            // And against the double-precision reference, so the FD is not of a wrong loss.
            auto ref = [&] { return reference_cross_entropy(logits, targets, pad, eps); };
            check_against_fd(logits, res.dlogits, ref, "dlogits vs reference");
        }
    }
}
