// layer_norm_backward against central finite differences of layer_norm_forward (grad_check.h).
#include "grad_check.h"
#include "ops/layer_norm.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;
using namespace attnlab::grad_check;

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
