// cross_entropy_forward_backward: the loss by hand and against a double-precision reference of
// torch's cross_entropy, pad rows ignored, and its gradient against central finite differences (grad_check.h).
#include "grad_check.h"
#include "ops/cross_entropy.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace attnlab;
using namespace attnlab::grad_check;

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
