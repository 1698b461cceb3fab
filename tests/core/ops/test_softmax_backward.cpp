// softmax_rows_backward against central finite differences of softmax_rows (grad_check.h), masked rows included.
#include "grad_check.h"
#include "ops/softmax.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;
using namespace attnlab::grad_check;

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
