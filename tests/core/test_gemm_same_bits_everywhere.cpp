// gemm's one fma chain per output (core/ops/gemm.h) on every instruction set: AVX-512, AVX2 + FMA, plain C++ and
// WebAssembly SIMD, which has no fused multiply-add and rounds through double (the cases where that alone would
// round differently are pinned here). The same inputs give the same committed bit pattern on all of them.
#include "ops/gemm.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace attnlab;

namespace {

// Floats in [-2, 2) with 24 random bits each, the same sequence on every platform (std::normal_distribution is
// not: libstdc++ and libc++ draw differently).
std::vector<float> fixed_randoms(size_t n, uint64_t seed) {
    std::vector<float> v(n);
    uint64_t state = seed;
    for (float& f : v) {
        state ^= state >> 12;  // xorshift64*
        state ^= state << 25;
        state ^= state >> 27;
        const uint64_t r = state * 0x2545F4914F6CDD1Dull;
        f = static_cast<float>(static_cast<int32_t>(r >> 40) - (1 << 23)) / static_cast<float>(1 << 22);
    }
    return v;
}

// FNV-1a over the floats' bits.
uint64_t bit_hash(const std::vector<float>& v, uint64_t hash = 1469598103934665603ull) {
    for (float f : v) {
        uint32_t b;
        std::memcpy(&b, &f, sizeof b);
        for (int shift = 0; shift < 32; shift += 8) {
            hash ^= (b >> shift) & 0xFFu;
            hash *= 1099511628211ull;
        }
    }
    return hash;
}

uint32_t bits(float v) {
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

// K = 8: a whole step of gemm's single-row path, which reads eight of W's rows at a time.
constexpr int64_t kChainK = 8;

// Every output the chain fma(x1, w1, fma(x0, w0, 0)), then six fma(0, 0, ·): x (N, 8) with rows (x0, x1, 0, …),
// W (8, n) with rows w0, w1, 0, … and the same as (n, 8).
struct TwoStepChains {
    std::vector<float> x, W_in_out, W_out_in;
};

TwoStepChains two_step_chains(int64_t N, int64_t n, float x0, float x1, float w0, float w1) {
    TwoStepChains p{std::vector<float>(size_t(N * kChainK)), std::vector<float>(size_t(kChainK * n)),
                    std::vector<float>(size_t(n * kChainK))};
    for (int64_t i = 0; i < N; ++i) {
        p.x[size_t(i * kChainK)] = x0;
        p.x[size_t(i * kChainK + 1)] = x1;
    }
    for (int64_t j = 0; j < n; ++j) {
        p.W_in_out[size_t(j)] = w0;
        p.W_in_out[size_t(n + j)] = w1;
        p.W_out_in[size_t(j * kChainK)] = w0;
        p.W_out_in[size_t(j * kChainK + 1)] = w1;
    }
    return p;
}

}  // namespace

TEST_CASE("gemm stays within the float chain's error bound of a double-accumulated product", "[ops][gemm]") {
    const int64_t N = 9, K = 700, n = 37;
    const std::vector<float> x = fixed_randoms(size_t(N * K), 1), W = fixed_randoms(size_t(K * n), 2);
    std::vector<float> y(size_t(N * n));
    gemm_in_out(x.data(), N, K, K, W.data(), n, n, y.data(), n);
    int64_t outside = 0;
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double exact = 0.0, magnitude = 0.0;
            for (int64_t k = 0; k < K; ++k) {
                const double product = double(x[size_t(i * K + k)]) * double(W[size_t(k * n + j)]);
                exact += product;
                magnitude += std::abs(product);
            }
            // K roundings of at most 2^-24 of a partial sum each: |error| ≤ K · 2^-24 · Σ|x·w| (to first order).
            outside += std::abs(double(y[size_t(i * n + j)]) - exact) > 1.01 * double(K) * 0x1p-24 * magnitude;
        }
    CHECK(outside == 0);
}

TEST_CASE("gemm gives the same committed bits on AVX-512, AVX2 + FMA, plain C++ and WebAssembly SIMD",
          "[ops][gemm]") {
    // Shapes through every path: one row (W's rows in place), a few rows (W in place), many rows (packed panels),
    // partial panels and K blocks, both weight layouts, with and without a bias.
    uint64_t hash = 1469598103934665603ull;
    const int64_t shapes[][3] = {{1, 300, 70}, {3, 513, 50}, {9, 64, 200}, {17, 1000, 61}};
    for (const auto& shape : shapes) {
        const int64_t N = shape[0], K = shape[1], n = shape[2];
        const std::vector<float> x = fixed_randoms(size_t(N * K), 3), W = fixed_randoms(size_t(K * n), 4);
        const std::vector<float> bias = fixed_randoms(size_t(n), 5);
        std::vector<float> y(size_t(N * n));
        gemm_in_out(x.data(), N, K, K, W.data(), n, n, y.data(), n, {bias.data(), nullptr});
        hash = bit_hash(y, hash);
        gemm_out_in(x.data(), N, K, K, W.data(), K, n, y.data(), n);
        hash = bit_hash(y, hash);
    }
    // Printed by g++ -march=native (AVX-512), g++ -mavx2 -mfma -mno-avx512f, g++ (x86-64, no FMA) and
    // em++ -msimd128 builds of this test alike.
    CHECK(hash == 0xa9fc1e07ce8342f3ull);
}

// 11687838 · 12041362 = 2^47 + 28, so x·w = 2^-24 + 28·2^-71 for x = 11687838·2^-23, w = 12041362·2^-48: just above
// half a float's step at 1. fma(x, w, 1) rounds up to 1 + 2^-23; the sum in double rounds to 1 + 2^-24 exactly
// halfway, and that to float, to even, gives 1.
TEST_CASE("gemm rounds a chain once where rounding through double lands halfway between two floats", "[ops][gemm]") {
    const float x1 = std::ldexp(11687838.0f, -23), w1 = std::ldexp(12041362.0f, -48);
    const float want = std::nextafter(1.0f, 2.0f);
    REQUIRE(std::fma(x1, w1, 1.0f) == want);
    REQUIRE(static_cast<float>(double(x1) * double(w1) + 1.0) == 1.0f);
    for (int64_t N : {1, 3, 8})
        for (int64_t n : {8, 13}) {
            INFO("N " << N << ", n " << n);
            const TwoStepChains p = two_step_chains(N, n, 1.0f, x1, 1.0f, w1);
            std::vector<float> y(size_t(N * n));
            gemm_in_out(p.x.data(), N, kChainK, kChainK, p.W_in_out.data(), n, n, y.data(), n);
            for (float v : y) CHECK(bits(v) == bits(want));
            gemm_out_in(p.x.data(), N, kChainK, kChainK, p.W_out_in.data(), kChainK, n, y.data(), n);
            for (float v : y) CHECK(bits(v) == bits(want));
        }
}

// The same above-halfway product scaled down to 2^-150 + 28·2^-197, added to the subnormal 2^-127: fma rounds up to
// 2^-127 + 2^-149; through double the sum rounds to 2^-127 + 2^-150, halfway on the subnormals' coarser grid (so its
// low double bits do not show it), and that to even gives 2^-127.
TEST_CASE("gemm rounds a chain once where its float is subnormal and the sum in double was not exact",
          "[ops][gemm]") {
    const float x1 = std::ldexp(11687838.0f, -100), w1 = std::ldexp(12041362.0f, -97);
    const float z = std::ldexp(1.0f, -127), want = std::ldexp(1.0f, -127) + std::ldexp(1.0f, -149);
#if !defined(__EMSCRIPTEN__)  // Emscripten's std::fma (musl's fmaf) is the sum through double: z
    REQUIRE(std::fma(x1, w1, z) == want);
#endif
    REQUIRE(static_cast<float>(double(x1) * double(w1) + double(z)) == z);
    for (int64_t N : {1, 3, 8}) {
        INFO("N " << N);
        const int64_t n = 8;
        const TwoStepChains p = two_step_chains(N, n, 1.0f, x1, z, w1);
        std::vector<float> y(size_t(N * n));
        gemm_in_out(p.x.data(), N, kChainK, kChainK, p.W_in_out.data(), n, n, y.data(), n);
        for (float v : y) CHECK(bits(v) == bits(want));
        gemm_out_in(p.x.data(), N, kChainK, kChainK, p.W_out_in.data(), kChainK, n, y.data(), n);
        for (float v : y) CHECK(bits(v) == bits(want));
    }
}
