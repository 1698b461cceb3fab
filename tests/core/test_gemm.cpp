// The GEMM contract (core/ops/gemm.h), bit for bit: every output is the in-order std::fma chain over k, whatever
// the shape, the row or column sub-range computed, the strides, or the instruction set this build targets.
#include "ops/gemm.h"
#include "ops/linear.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace attnlab;

namespace {

enum class Layout { in_out, out_in };  // W (K, n) or W (n, K)

struct Problem {
    Layout layout;
    int64_t N, K, n;
    int64_t ldx, ldw;  // row strides, ≥ K and ≥ the stored row's width
    std::vector<float> x, W;
};

Problem make_problem(Layout layout, int64_t N, int64_t K, int64_t n, int64_t x_gap, int64_t w_gap, uint32_t seed) {
    Problem p{layout, N, K, n, K + x_gap, (layout == Layout::in_out ? n : K) + w_gap, {}, {}};
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal;
    p.x.resize(static_cast<size_t>(N * p.ldx));
    p.W.resize(static_cast<size_t>((layout == Layout::in_out ? K : n) * p.ldw));
    for (float& v : p.x) v = normal(rng);
    for (float& v : p.W) v = normal(rng);
    return p;
}

float w_at(const Problem& p, int64_t k, int64_t j) {
    return p.W[static_cast<size_t>(p.layout == Layout::in_out ? k * p.ldw + j : j * p.ldw + k)];
}

// The contract's own words: acc = 0; for k: acc = std::fma(x[i][k], W(k, j), acc).
float reference(const Problem& p, int64_t i, int64_t j) {
    float acc = 0.0f;
    for (int64_t k = 0; k < p.K; ++k) acc = std::fma(p.x[static_cast<size_t>(i * p.ldx + k)], w_at(p, k, j), acc);
    return acc;
}

// Rows [r0, r1) and columns [c0, c1) computed alone, into y with row stride ldy (NaN elsewhere).
std::vector<float> run(const Problem& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1, int64_t ldy) {
    std::vector<float> y(static_cast<size_t>(std::max<int64_t>(1, (r1 - r0) * ldy)), NAN);
    const float* x = p.x.data() + r0 * p.ldx;
    if (p.layout == Layout::in_out)
        gemm_in_out(x, r1 - r0, p.K, p.ldx, p.W.data() + c0, p.ldw, c1 - c0, y.data(), ldy);
    else
        gemm_out_in(x, r1 - r0, p.K, p.ldx, p.W.data() + c0 * p.ldw, p.ldw, c1 - c0, y.data(), ldy);
    return y;
}

uint32_t bits(float v) {
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

// How many outputs of rows [r0, r1) × columns [c0, c1) differ in any bit from the reference, and whether the
// row stride's gap was left alone.
struct Verdict {
    int64_t differing = 0;
    bool gap_untouched = true;
};

Verdict check(const Problem& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    const int64_t ldy = (c1 - c0) + 3;
    const std::vector<float> y = run(p, r0, r1, c0, c1, ldy);
    Verdict v;
    for (int64_t i = r0; i < r1; ++i) {
        const float* row = y.data() + (i - r0) * ldy;
        for (int64_t j = c0; j < c1; ++j) v.differing += bits(row[j - c0]) != bits(reference(p, i, j));
        for (int64_t j = c1 - c0; j < ldy; ++j) v.gap_untouched = v.gap_untouched && std::isnan(row[j]);
    }
    return v;
}

struct Shape3 {
    int64_t N, K, n, x_gap, w_gap;
};
// N = 1 and a few rows (W read in place), N past one and two row blocks, n not a multiple of the panel and
// wider than one column block, K = 1, K just past one K block, K = 3072 (GPT-2's FFN down map), strided x; a last
// panel of whole registers (64 and 80 columns: 16 and 32 past a 48-wide panel, 16 and 8 past a 24-wide one), which
// the kernel writes in place, across two K blocks.
const Shape3 kShapes[] = {{1, 1, 1, 0, 0},      {1, 768, 200, 0, 0},  {3, 1, 97, 5, 2},       {5, 33, 7, 0, 0},
                          {8, 257, 49, 1, 3},   {13, 64, 1000, 7, 0}, {17, 100, 96, 0, 11},   {19, 3072, 61, 2, 1},
                          {64, 300, 545, 9, 4}, {70, 513, 130, 0, 0}, {2, 3072, 100, 768, 0}, {1, 37, 75, 3, 5},
                          {21, 640, 64, 0, 0},  {35, 600, 80, 2, 3}};

}  // namespace

TEST_CASE("gemm gives each output the in-order fma chain, bit for bit, at every shape", "[ops][gemm]") {
    uint32_t seed = 1;
    for (const Layout layout : {Layout::in_out, Layout::out_in}) {
        for (const Shape3& s : kShapes) {
            const Problem p = make_problem(layout, s.N, s.K, s.n, s.x_gap, s.w_gap, seed++);
            INFO((layout == Layout::in_out ? "in_out" : "out_in") << " N " << s.N << " K " << s.K << " n " << s.n);
            const Verdict v = check(p, 0, s.N, 0, s.n);
            CHECK(v.differing == 0);
            CHECK(v.gap_untouched);
        }
    }
}

TEST_CASE("gemm computes any rows or columns alone with the bits of the whole product", "[ops][gemm]") {
    for (const Layout layout : {Layout::in_out, Layout::out_in}) {
        const Problem p = make_problem(layout, 37, 700, 1100, 3, 5, layout == Layout::in_out ? 11 : 12);
        INFO((layout == Layout::in_out ? "in_out" : "out_in"));
        const int64_t ldy = p.n;
        const std::vector<float> whole = run(p, 0, p.N, 0, p.n, ldy);
        struct Range {
            int64_t r0, r1, c0, c1;
        };
        // One row, the last rows, rows across a row block's edge; one column, columns across a panel's and a
        // column block's edge, the last column.
        for (const Range r : {Range{5, 6, 0, p.n}, Range{30, 37, 0, p.n}, Range{3, 20, 0, p.n}, Range{0, p.N, 17, 18},
                              Range{0, p.N, 40, 530}, Range{0, p.N, 1099, 1100}, Range{36, 37, 481, 977}}) {
            INFO("rows [" << r.r0 << ", " << r.r1 << ") columns [" << r.c0 << ", " << r.c1 << ")");
            const int64_t w = r.c1 - r.c0;
            const std::vector<float> part = run(p, r.r0, r.r1, r.c0, r.c1, w);
            int64_t differing = 0;
            for (int64_t i = r.r0; i < r.r1; ++i)
                for (int64_t j = r.c0; j < r.c1; ++j)
                    differing += bits(part[static_cast<size_t>((i - r.r0) * w + j - r.c0)]) !=
                                 bits(whole[static_cast<size_t>(i * ldy + j)]);
            CHECK(differing == 0);
        }
        CHECK(check(p, 0, p.N, 0, p.n).differing == 0);  // and the whole is the contract's
    }
}

TEST_CASE(
    "gemm_in_out_to_depth stops each row tile's chains at its depth, with the full product's bits when the "
    "rest of x is zero",
    "[ops][gemm]") {
    // N across several row tiles, a partial last tile; n with a partial panel; K past one K block (depths on both
    // sides of its edge); N = 1 and N ≤ 2 tiles (W read in place).
    for (const int64_t N : {int64_t{1}, int64_t{11}, int64_t{45}}) {
        Problem p = make_problem(Layout::in_out, N, 600, 70, 2, 3, static_cast<uint32_t>(40 + N));
        const int64_t tiles = (N + kGemmRows - 1) / kGemmRows;
        std::vector<int64_t> depth(static_cast<size_t>(tiles));
        for (int64_t t = 0; t < tiles; ++t) depth[static_cast<size_t>(t)] = (t * 211 + 37) % 601;  // 0 … 600
        const int64_t ldy = p.n;
        auto run_to_depth = [&] {
            std::vector<float> y(static_cast<size_t>(N * ldy), NAN);
            gemm_in_out_to_depth(p.x.data(), N, p.K, p.ldx, p.W.data(), p.ldw, p.n, y.data(), ldy, depth.data());
            return y;
        };
        INFO("N " << N);
        // The chain stops at the tile's depth.
        std::vector<float> y = run_to_depth();
        int64_t differing = 0;
        for (int64_t i = 0; i < N; ++i)
            for (int64_t j = 0; j < p.n; ++j) {
                float acc = 0.0f;
                for (int64_t k = 0; k < depth[static_cast<size_t>(i / kGemmRows)]; ++k)
                    acc = std::fma(p.x[static_cast<size_t>(i * p.ldx + k)], w_at(p, k, j), acc);
                differing += bits(y[static_cast<size_t>(i * ldy + j)]) != bits(acc);
            }
        CHECK(differing == 0);
        // With x zero past each depth, the whole product's bits.
        for (int64_t i = 0; i < N; ++i)
            for (int64_t k = depth[static_cast<size_t>(i / kGemmRows)]; k < p.K; ++k)
                p.x[static_cast<size_t>(i * p.ldx + k)] = 0.0f;
        y = run_to_depth();
        CHECK(check(p, 0, N, 0, p.n).differing == 0);
        differing = 0;
        for (int64_t i = 0; i < N; ++i)
            for (int64_t j = 0; j < p.n; ++j)
                differing += bits(y[static_cast<size_t>(i * ldy + j)]) != bits(reference(p, i, j));
        CHECK(differing == 0);
    }
}

TEST_CASE("linear maps add the bias to the gemm's bits, for both weight layouts", "[ops][gemm]") {
    std::mt19937 rng(5);
    std::normal_distribution<float> normal;
    Tensor x({9, 40}), w({70, 40}), b({70});  // x (N, in), w (out, in) and, read as (in, out), also (40, ·)
    for (Tensor* t : {&x, &w, &b})
        for (float& v : t->data) v = normal(rng);
    const Tensor w_in_out = [&] {
        Tensor t({40, 70});  // (in, out)
        for (float& v : t.data) v = normal(rng);
        return t;
    }();
    const Tensor y = linear_forward(x, w, &b, 10, 50);                   // (9, 50): rows [10, 60) of w
    const Tensor y_io = linear_in_out_forward(x, w_in_out, &b, 10, 50);  // (9, 50): columns [10, 60)
    std::vector<float> g(9 * 50), g_io(9 * 50);
    gemm_out_in(x.data.data(), 9, 40, 40, w.data.data() + 10 * 40, 40, 50, g.data(), 50);
    gemm_in_out(x.data.data(), 9, 40, 40, w_in_out.data.data() + 10, 70, 50, g_io.data(), 50);
    int64_t differing = 0;
    for (int64_t i = 0; i < 9; ++i) {
        for (int64_t j = 0; j < 50; ++j) {
            const size_t at = static_cast<size_t>(i * 50 + j);
            differing += bits(y.data[at]) != bits(g[at] + b.data[static_cast<size_t>(10 + j)]);
            differing += bits(y_io.data[at]) != bits(g_io[at] + b.data[static_cast<size_t>(10 + j)]);
        }
    }
    CHECK(differing == 0);
}

TEST_CASE("gemm's epilogue adds the bias with one rounding and counts the NaN and ±∞ it stores, not the padding's",
          "[ops][gemm]") {
    uint32_t seed = 100;
    std::vector<Shape3> shapes(std::begin(kShapes), std::end(kShapes));
    shapes.push_back({6, 0, 50, 0, 0});  // K = 0: the bias alone
    for (const Layout layout : {Layout::in_out, Layout::out_in}) {
        for (const Shape3& s : shapes) {
            Problem p = make_problem(layout, s.N, s.K, s.n, s.x_gap, s.w_gap, seed++);
            INFO((layout == Layout::in_out ? "in_out" : "out_in") << " N " << s.N << " K " << s.K << " n " << s.n);
            // Row 0 meets +∞ (±∞ or NaN in every output, and 0·∞ in a zero-padded column if it were counted), the
            // last row a NaN; a bias of 3e38 overflows some finite chains, and the last column's −∞ every row.
            if (s.K > 0) {
                p.x[0] = INFINITY;
                if (s.N > 1) p.x[static_cast<size_t>((s.N - 1) * p.ldx + s.K / 2)] = NAN;
            }
            std::vector<float> bias(static_cast<size_t>(s.n));
            std::mt19937 rng(seed);
            std::normal_distribution<float> normal;
            for (int64_t j = 0; j < s.n; ++j) bias[static_cast<size_t>(j)] = j % 7 == 3 ? 3e38f : normal(rng);
            if (s.n > 1) bias.back() = -INFINITY;
            for (int64_t i = 0; i < s.N; ++i)  // a chain near FLT_MAX that the bias then overflows
                if (s.K > 0 && i % 5 == 2)
                    p.x[static_cast<size_t>(i * p.ldx)] = 3e38f / (std::abs(w_at(p, 0, 3)) + 1e-3f);

            const int64_t ldy = s.n + 2;
            std::vector<float> y(static_cast<size_t>(s.N * ldy), 7.0f);
            int64_t counted = 0;
            const GemmEpilogue epilogue{bias.data(), &counted};
            if (layout == Layout::in_out)
                gemm_in_out(p.x.data(), s.N, s.K, p.ldx, p.W.data(), p.ldw, s.n, y.data(), ldy, epilogue);
            else
                gemm_out_in(p.x.data(), s.N, s.K, p.ldx, p.W.data(), p.ldw, s.n, y.data(), ldy, epilogue);

            int64_t differing = 0, expected_count = 0, gap_touched = 0;
            for (int64_t i = 0; i < s.N; ++i) {
                for (int64_t j = 0; j < s.n; ++j) {
                    const float want = reference(p, i, j) + bias[static_cast<size_t>(j)];
                    const float got = y[static_cast<size_t>(i * ldy + j)];
                    expected_count += std::isfinite(want) ? 0 : 1;
                    differing += std::isnan(want) ? !std::isnan(got) : bits(got) != bits(want);
                }
                for (int64_t j = s.n; j < ldy; ++j) gap_touched += y[static_cast<size_t>(i * ldy + j)] != 7.0f;
            }
            CHECK(differing == 0);
            CHECK(gap_touched == 0);
            CHECK(expected_count > 0);
            CHECK(counted == expected_count);
        }
    }
}

TEST_CASE("linear maps count the NaN and ±∞ of what they write, with the bias added", "[ops][gemm]") {
    const auto filled = [](Shape shape, float value) {
        Tensor t(std::move(shape));
        std::fill(t.data.begin(), t.data.end(), value);
        return t;
    };
    Tensor x = filled({9, 40}, 0.5f), b = filled({70}, 0.0f);  // every output 20 before the bias
    const Tensor w = filled({70, 40}, 1.0f), w_in_out = filled({40, 70}, 1.0f);
    b.data[12] = 3.4e38f;   // finite: 20 + 3.4e38 rounds to 3.4e38
    b.data[13] = INFINITY;  // column 3 of the outputs [10, 60): one in each of the 9 rows
    x.data[40 + 5] = NAN;   // row 1: all 50 outputs
    Tensor y({9, 50});
    const OutputColumns out(y.data.data(), 9, 50, Eigen::OuterStride<>(50));
    int64_t counted = 0, counted_in_out = 0;
    linear_forward(x, w, &b, 10, 50, out, &counted);
    CHECK(counted == 50 + 8);
    linear_in_out_forward(x, w_in_out, &b, 10, 50, out, &counted_in_out);
    CHECK(counted_in_out == 50 + 8);
}

TEST_CASE("transpose turns any shape, with row strides, float for float", "[ops][gemm]") {
    struct Case {
        int64_t rows, cols, m_gap, t_gap;
    };
    // 16 × 16 and 8 × 8 blocks, with strips and columns left over; a single row or column; strides past the width.
    for (const Case c : {Case{640, 64, 0, 0}, Case{37, 21, 3, 5}, Case{16, 16, 0, 0}, Case{1, 9, 0, 0},
                         Case{23, 1, 0, 2}, Case{8, 40, 1, 0}, Case{45, 300, 0, 0}}) {
        INFO(c.rows << " x " << c.cols);
        const int64_t ldm = c.cols + c.m_gap, ldt = c.rows + c.t_gap;
        std::vector<float> m(static_cast<size_t>(c.rows * ldm));
        for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<float>(i);
        std::vector<float> t(static_cast<size_t>(c.cols * ldt), -1.0f);
        transpose(m.data(), c.rows, c.cols, ldm, t.data(), ldt);
        int64_t wrong = 0, gap_touched = 0;
        for (int64_t j = 0; j < c.cols; ++j) {
            for (int64_t i = 0; i < c.rows; ++i)
                wrong += t[static_cast<size_t>(j * ldt + i)] != m[static_cast<size_t>(i * ldm + j)];
            for (int64_t i = c.rows; i < ldt; ++i) gap_touched += t[static_cast<size_t>(j * ldt + i)] != -1.0f;
        }
        CHECK(wrong == 0);
        CHECK(gap_touched == 0);
    }
}
