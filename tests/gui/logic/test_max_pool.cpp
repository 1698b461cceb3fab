// Max-pooling for thumbnails: one bright cell survives, masked cells never win, signs are kept, and the spans
// cut an axis the way the heatmap shader does.
#include "gl/max_pool.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

using namespace attnlab::gui;

TEST_CASE("a 1024 x 1024 head pooled to a 64-pixel thumbnail keeps its one bright cell", "[max_pool]") {
    const int T = 1024, thumb = 64, row = 517, col = 1023;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> tiny(0.0f, 1e-3f);
    std::vector<float> w(static_cast<size_t>(T) * T);
    for (float& v : w) v = tiny(rng);
    w[static_cast<size_t>(row) * T + col] = 1.0f;
    const PooledMatrix p = max_pool({w.data(), T, T, T}, thumb, thumb, PoolKind::largest);
    REQUIRE(p.rows == thumb);
    REQUIRE(p.cols == thumb);
    const int pr = row * thumb / T, pc = col * thumb / T;
    int bright = 0;
    for (int i = 0; i < thumb; ++i)
        for (int j = 0; j < thumb; ++j) {
            const float v = p.values[static_cast<size_t>(i) * thumb + j];
            if (v > 0.5f) {
                ++bright;
                CHECK(i == pr);
                CHECK(j == pc);
            }
            CHECK(p.mask[static_cast<size_t>(i) * thumb + j] == 255);
        }
    CHECK(bright == 1);
    // An average would have left (1 + ~0) / 256: the pooled pixel holds the cell itself.
    CHECK(p.values[static_cast<size_t>(pr) * thumb + pc] == 1.0f);
}

TEST_CASE("max pooling skips masked and non-finite cells, keeps the sign by magnitude, and reads windows",
          "[max_pool]") {
    // (4, 4), a causal mask: row r sees columns ≤ r. The masked (0, 3) holds the largest value.
    const std::vector<float> v = {0.1f, 0.2f, 0.3f, 9.0f,  //
                                  0.4f, -5.f, 0.6f, 0.7f,  //
                                  0.8f, 0.9f, NAN,  0.2f,  //
                                  0.3f, 0.1f, 0.0f, 0.5f};
    std::vector<float> mask(16, 0.0f);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c <= r; ++c) mask[static_cast<size_t>(r) * 4 + c] = 1.0f;
    const PooledMatrix p = max_pool({v.data(), 4, 4, 4, mask.data()}, 2, 2, PoolKind::largest);
    CHECK(p.values[0] == 0.4f);      // rows 0-1, cols 0-1: 9.0 at (0, 3) is elsewhere; -5 loses to 0.4
    CHECK(std::isnan(p.values[1]));  // rows 0-1, cols 2-3: all masked
    CHECK(p.mask[1] == 0);
    CHECK(p.values[2] == 0.9f);  // rows 2-3, cols 0-1
    CHECK(p.values[3] == 0.5f);  // rows 2-3, cols 2-3: the NaN at (2, 2) never wins, (2, 3) is masked
    CHECK(p.mask[3] == 255);

    const PooledMatrix a = max_pool({v.data(), 4, 4, 4, mask.data()}, 2, 2, PoolKind::largest_abs);
    CHECK(a.values[0] == -5.0f);  // the largest magnitude, its sign kept

    // A window: rows 1-2, cols 1-3 of the matrix, no mask, pooled to one cell.
    const PooledMatrix win = max_pool({v.data() + 4 + 1, 2, 3, 4}, 1, 1, PoolKind::largest);
    CHECK(win.values[0] == 0.9f);
}

TEST_CASE("pool spans cover every cell of an axis exactly once", "[max_pool]") {
    for (const auto& [n, cells] : {std::pair{64, 1024}, {7, 10}, {3, 3}, {5, 1023}}) {
        int next = 0;
        for (int i = 0; i < n; ++i) {
            const PoolSpan s = pool_span(i, n, cells);
            CHECK(s.first == next);
            CHECK(s.end > s.first);
            next = s.end;
        }
        CHECK(next == cells);
    }
}
