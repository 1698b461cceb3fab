// The panel kernel for GPT-2's (in, out) weights against a product summed in double, over shapes
// with every kind of remainder: tokens not a multiple of 8, outputs not a multiple of 48, groups
// of fewer than 8 panels, a column offset and a row stride wider than the outputs.
#include "ops/panel_gemm.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

using namespace attnlab;

TEST_CASE("the panel kernel multiplies like a double-precision product", "[ops]") {
    if (!panel_gemm_available()) {
        WARN("no AVX-512 here: linear_in_out_forward uses Eigen instead");
        return;
    }
    std::mt19937 rng(7);
    std::normal_distribution<float> normal;
    struct Case {
        int64_t N, in, ld, c0, n;
    };
    for (const Case c : {Case{1, 5, 50, 0, 48}, Case{7, 33, 500, 13, 400}, Case{8, 64, 96, 48, 48},
                         Case{19, 100, 1000, 7, 977}, Case{64, 96, 3 * 96, 96, 96}, Case{3, 8, 40, 2, 30}}) {
        INFO("N " << c.N << " in " << c.in << " ld " << c.ld << " c0 " << c.c0 << " n " << c.n);
        std::vector<float> x(static_cast<size_t>(c.N * c.in)), w(static_cast<size_t>(c.in * c.ld));
        for (float& v : x) v = normal(rng);
        for (float& v : w) v = normal(rng);
        const int64_t ldy = c.n + 5;
        std::vector<float> y(static_cast<size_t>(c.N * ldy), NAN);
        panel_gemm_in_out(x.data(), c.N, c.in, w.data(), c.ld, c.c0, c.n, y.data(), ldy);
        double worst = 0.0;
        bool gap_untouched = true;
        for (int64_t t = 0; t < c.N; ++t) {
            for (int64_t j = 0; j < c.n; ++j) {
                double want = 0.0;
                for (int64_t k = 0; k < c.in; ++k)
                    want += double(x[static_cast<size_t>(t * c.in + k)]) * w[static_cast<size_t>(k * c.ld + c.c0 + j)];
                worst = std::max(worst, std::abs(y[static_cast<size_t>(t * ldy + j)] - want) / std::sqrt(double(c.in)));
            }
            for (int64_t j = c.n; j < ldy; ++j)
                gap_untouched = gap_untouched && std::isnan(y[static_cast<size_t>(t * ldy + j)]);
        }
        CHECK(worst < 1e-5);
        CHECK(gap_untouched);  // the row stride's gap is left alone
    }
}
