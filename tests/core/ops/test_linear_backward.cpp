// linear_backward against central finite differences of linear_forward (grad_check.h).
#include "grad_check.h"
#include "ops/linear.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::grad_check;

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
