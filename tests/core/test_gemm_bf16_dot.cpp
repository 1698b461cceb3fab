// gemm's dot_bf16 products (gemm_bf16_products.h): on a CPU with AVX512_BF16, y = Σ_k bf16(x[k])·W(k, j) in F32,
// within the bound of any F32 sum of those products of a double-precision reference, for both layouts, a single row,
// ragged edges and several K blocks; x rounded to nearest even (not truncated, not left F32); a row alone equal to the
// same row among others; the epilogue as the exact path's. On a CPU without it, asking for dot_bf16 runs the exact
// path, bit for bit.
#include "ops/gemm.h"
#include "ops/gemm_bf16_products.h"

#include "bf16_buffer.h"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace attnlab;

namespace {

enum class Layout { in_out, out_in };  // W (K, n), or the same values read as W (n, K)

// Asks for dot_bf16 for the test's length and puts exact back however the test ends, so that no other test sees it.
struct DotAsked {
    DotAsked() : in_use(set_bf16_products(Bf16Products::dot_bf16)) {}
    ~DotAsked() { set_bf16_products(Bf16Products::exact); }
    Bf16Products in_use;
};

std::vector<float> normal_floats(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& f : v) f = d(rng);
    return v;
}

uint32_t bits_of(float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}
float float_of(uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

// BF16 values from the upper halves of normal floats.
std::vector<uint16_t> bf16_values(size_t n, uint32_t seed) {
    std::vector<uint16_t> out(n);
    const std::vector<float> f = normal_floats(n, seed);
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint16_t>(bits_of(f[i]) >> 16);
    return out;
}

// f rounded to BF16, to nearest with ties to even (finite f), as a float; or truncated.
float bf16_nearest_even(float f) {
    const uint32_t b = bits_of(f);
    return float_of((b + 0x7FFFu + ((b >> 16) & 1u)) & 0xFFFF0000u);
}
float bf16_truncated(float f) { return float_of(bits_of(f) & 0xFFFF0000u); }

// Σ_k r(x[i][k])·W(k, j) in double, and Σ_k |r(x[i][k])·W(k, j)|, (N, n), r the rounding x gets.
struct Reference {
    std::vector<double> sum, magnitude;
};
template <class Round>
Reference reference(Layout layout, const std::vector<float>& x, int64_t N, int64_t K, int64_t ldx,
                    const std::vector<uint16_t>& w, int64_t n, Round round) {
    Reference ref{std::vector<double>(static_cast<size_t>(N * n)), std::vector<double>(static_cast<size_t>(N * n))};
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double sum = 0.0, magnitude = 0.0;
            for (int64_t k = 0; k < K; ++k) {
                const uint16_t wk = layout == Layout::in_out ? w[static_cast<size_t>(k * n + j)]
                                                             : w[static_cast<size_t>(j * K + k)];
                const double p = double(round(x[static_cast<size_t>(i * ldx + k)])) * double(bf16_to_float(wk));
                sum += p;
                magnitude += std::abs(p);
            }
            ref.sum[static_cast<size_t>(i * n + j)] = sum;
            ref.magnitude[static_cast<size_t>(i * n + j)] = magnitude;
        }
    return ref;
}

// How far an F32 sum of the K products may be from the exact sum. A product of two BF16 values (8 significant bits
// each) has at most 16 and is exact in float (no value here is near the subnormals, which vdpbf16ps flushes); the
// kernel adds the K products of an output into one float, each vdpbf16ps rounding once or twice, K − 1 roundings at
// most in all, so in whatever order: |ŝ − s| ≤ γ_{K−1}·Σ|p_k|, γ_m = m·u / (1 − m·u), u = 2^-24 (Higham, Accuracy
// and Stability of Numerical Algorithms, §4.2). γ_K leaves room for the double reference's own error (2^-29 of it).
double sum_bound(int64_t K, double magnitude) {
    const double mu = double(K) * 0x1p-24;
    return mu / (1.0 - mu) * magnitude;
}

// The outputs (N, n) of y (row stride ldy) farther from ref than sum_bound.
int64_t outside_bound(const std::vector<float>& y, int64_t ldy, const Reference& ref, int64_t N, int64_t K, int64_t n) {
    int64_t outside = 0;
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < n; ++j) {
            const size_t r = static_cast<size_t>(i * n + j);
            outside += std::abs(double(y[static_cast<size_t>(i * ldy + j)]) - ref.sum[r]) > sum_bound(K, ref.magnitude[r]);
        }
    return outside;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// y (N, ldy) = x·W by gemm_in_out_bf16 or gemm_out_in_bf16 under whatever Bf16Products is in use; y's padding past n
// is NaN, and stays so.
std::vector<float> product(Layout layout, const std::vector<float>& x, int64_t N, int64_t K, int64_t ldx,
                           const std::vector<uint16_t>& w, int64_t n, int64_t ldy, GemmEpilogue epilogue = {}) {
    std::vector<float> y(static_cast<size_t>(N * ldy), std::numeric_limits<float>::quiet_NaN());
    if (layout == Layout::in_out)
        gemm_in_out_bf16(x.data(), N, K, ldx, w.data(), n, n, y.data(), ldy, epilogue);
    else
        gemm_out_in_bf16(x.data(), N, K, ldx, w.data(), K, n, y.data(), ldy, epilogue);
    return y;
}

}  // namespace

TEST_CASE("BF16 products by vdpbf16ps are bf16(x)·W within an F32 sum's bound, or the exact path without the CPU",
          "[gemm][bf16][bf16-dot]") {
    // (N, K, n): single rows (an (in, out) W read in place, past its 1,024-column stretch; an (out, in) one packed),
    // fewer rows than a tile, ragged panels and tiles, odd K, K past one and two K blocks (512 deep), n past one block
    // of panels (480 columns).
    const std::vector<std::array<int64_t, 3>> shapes = {
        {1, 8, 16},   {1, 37, 53},  {1, 600, 1100}, {1, 1301, 70}, {2, 64, 48}, {3, 101, 97}, {9, 1025, 50},
        {17, 260, 500}, {33, 96, 1500}, {8, 513, 49}, {5, 1, 3},     {1, 7, 1}};
    uint32_t seed = 100;
    for (const auto& [N, K, n] : shapes) {
        for (const Layout layout : {Layout::in_out, Layout::out_in}) {
            CAPTURE(N, K, n, layout == Layout::in_out ? "in_out" : "out_in");
            const int64_t ldx = K + 3, ldy = n + 5;  // row strides past the rows
            const std::vector<float> x = normal_floats(static_cast<size_t>(N * ldx), seed++);
            const std::vector<uint16_t> w = bf16_values(static_cast<size_t>(K * n), seed++);
            const std::vector<float> exact = product(layout, x, N, K, ldx, w, n, ldy);
            const DotAsked asked;
            const std::vector<float> got = product(layout, x, N, K, ldx, w, n, ldy);
            if (!cpu_has_bf16_dot()) {  // the fallback: the exact path, bit for bit
                CHECK(asked.in_use == Bf16Products::exact);
                CHECK(same_bits(got, exact));
                continue;
            }
            REQUIRE(asked.in_use == Bf16Products::dot_bf16);
            const Reference ref = reference(layout, x, N, K, ldx, w, n, bf16_nearest_even);
            CHECK(outside_bound(got, ldy, ref, N, K, n) == 0);
            CHECK(!same_bits(got, exact));  // x's float bits matter to the exact path: this one rounded them
            int64_t padding_written = 0;
            for (int64_t i = 0; i < N; ++i)
                for (int64_t j = n; j < ldy; ++j) padding_written += !std::isnan(got[static_cast<size_t>(i * ldy + j)]);
            CHECK(padding_written == 0);
        }
    }
}

TEST_CASE("vdpbf16ps products round x to nearest even: not truncated, not left F32", "[gemm][bf16][bf16-dot]") {
    // Positive x and W, so that no sum cancels. x = v + 0.375, 0.5 or 0.625 of v's BF16 ulp, v with an even last bit:
    // to nearest even gives v, v (the tie, to the even v) and v + ulp; truncation v, v, v; F32 keeps the offsets.
    const int64_t N = 9, K = 700, n = 100;
    std::vector<float> x = normal_floats(static_cast<size_t>(N * K), 31);
    const uint32_t offsets[3] = {0x6000u, 0x8000u, 0xA000u};
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = float_of((bits_of(std::abs(x[i])) & 0xFFFE0000u) + offsets[i % 3]);
    std::vector<uint16_t> w = bf16_values(static_cast<size_t>(K * n), 32);
    for (uint16_t& v : w) v &= 0x7FFFu;
    for (const Layout layout : {Layout::in_out, Layout::out_in})
        for (const int64_t rows : {int64_t{1}, N}) {  // the single row's own path, and the panels
            CAPTURE(layout == Layout::in_out ? "in_out" : "out_in", rows);
            const std::vector<float> exact = product(layout, x, rows, K, K, w, n, n);
            const DotAsked asked;
            const std::vector<float> got = product(layout, x, rows, K, K, w, n, n);
            if (!cpu_has_bf16_dot()) {
                CHECK(same_bits(got, exact));
                continue;
            }
            const Reference nearest_even = reference(layout, x, rows, K, K, w, n, bf16_nearest_even);
            const Reference truncated = reference(layout, x, rows, K, K, w, n, bf16_truncated);
            const Reference unrounded = reference(layout, x, rows, K, K, w, n, [](float f) { return f; });
            // The other roundings' sums lie outside the bound around nearest-even's: the data tells them apart.
            const std::vector<float> truncated_as_y(truncated.sum.begin(), truncated.sum.end());
            const std::vector<float> unrounded_as_y(unrounded.sum.begin(), unrounded.sum.end());
            REQUIRE(outside_bound(truncated_as_y, n, nearest_even, rows, K, n) == rows * n);
            REQUIRE(outside_bound(unrounded_as_y, n, nearest_even, rows, K, n) == rows * n);
            CHECK(outside_bound(got, n, nearest_even, rows, K, n) == 0);
            CHECK(outside_bound(got, n, truncated, rows, K, n) == rows * n);
            CHECK(outside_bound(got, n, unrounded, rows, K, n) == rows * n);
        }
}

TEST_CASE("vdpbf16ps products: a row alone equals the same row among others, bit for bit", "[gemm][bf16][bf16-dot]") {
    // The stepper re-runs single rows after an edit; they must match the rows of a whole run.
    const int64_t N = 21, K = 1100, n = 530;
    const std::vector<float> x = normal_floats(static_cast<size_t>(N * K), 41);
    const std::vector<uint16_t> w = bf16_values(static_cast<size_t>(K * n), 42);
    const DotAsked asked;
    for (const Layout layout : {Layout::in_out, Layout::out_in}) {
        CAPTURE(layout == Layout::in_out ? "in_out" : "out_in");
        const std::vector<float> whole = product(layout, x, N, K, K, w, n, n);
        int64_t rows_differing = 0;
        for (const int64_t i : {int64_t{0}, int64_t{7}, N - 1}) {
            const std::vector<float> row(x.begin() + i * K, x.begin() + (i + 1) * K);
            const std::vector<float> alone = product(layout, row, 1, K, K, w, n, n);
            rows_differing += std::memcmp(alone.data(), whole.data() + i * n, static_cast<size_t>(n) * sizeof(float)) != 0;
        }
        CHECK(rows_differing == 0);
    }
}

TEST_CASE("vdpbf16ps products take the epilogue as the exact path does: bias once, non-finite outputs counted",
          "[gemm][bf16][bf16-dot]") {
    const int64_t N = 10, K = 90, n = 70;
    const std::vector<float> x = normal_floats(static_cast<size_t>(N * K), 51);
    std::vector<uint16_t> w = bf16_values(static_cast<size_t>(K * n), 52);
    w[static_cast<size_t>(5 * n + 9)] = 0x7F80u;  // +∞ in one output's column: W(5, 9) in_out, W(3, 89) out_in
    const std::vector<float> bias = normal_floats(static_cast<size_t>(n), 53);
    const DotAsked asked;
    for (const Layout layout : {Layout::in_out, Layout::out_in}) {
        CAPTURE(layout == Layout::in_out ? "in_out" : "out_in");
        int64_t count_exact = 0, count_dot = 0;
        set_bf16_products(Bf16Products::exact);
        product(layout, x, N, K, K, w, n, n, {bias.data(), &count_exact});
        set_bf16_products(Bf16Products::dot_bf16);
        const std::vector<float> plain = product(layout, x, N, K, K, w, n, n);
        const std::vector<float> with_bias = product(layout, x, N, K, K, w, n, n, {bias.data(), &count_dot});
        int64_t not_added_once = 0, non_finite = 0;
        for (int64_t i = 0; i < N; ++i)
            for (int64_t j = 0; j < n; ++j) {
                const size_t r = static_cast<size_t>(i * n + j);
                const float want = plain[r] + bias[static_cast<size_t>(j)];
                not_added_once += std::isfinite(want) ? bits_of(with_bias[r]) != bits_of(want) : std::isfinite(with_bias[r]);
                non_finite += !std::isfinite(with_bias[r]);
            }
        CHECK(not_added_once == 0);
        CHECK(non_finite == N);  // the one column through +∞ (no x here is 0)
        CHECK(count_dot == non_finite);
        CHECK(count_dot == count_exact);
    }
}
