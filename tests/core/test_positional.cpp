// Sinusoidal PE: the paper's formula at known points, and PE(pos+k) as a rotation of PE(pos).
#include "ops/positional.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;

TEST_CASE("PE matches the paper's formula at known values", "[positional]") {
    const Tensor pe = sinusoidal_encoding(50, 16);  // (50, 16)
    REQUIRE(pe.shape == Shape{50, 16});
    // pos 0: sin(0) = 0 in even dims, cos(0) = 1 in odd dims.
    for (int j = 0; j < 16; ++j) CHECK(pe.data[j] == (j % 2 == 0 ? 0.0f : 1.0f));
    // dims 0 and 1 have wavelength 2π: PE(pos, 0) = sin(pos), PE(pos, 1) = cos(pos).
    CHECK(pe.data[3 * 16 + 0] == Approx(std::sin(3.0)).margin(1e-7));
    CHECK(pe.data[3 * 16 + 1] == Approx(std::cos(3.0)).margin(1e-7));
    // dim 2i = 6 (i = 3): sin(pos / 10000^(6/16)) at pos 7.
    CHECK(pe.data[7 * 16 + 6] == Approx(std::sin(7.0 / std::pow(10000.0, 6.0 / 16.0))).margin(1e-7));
    CHECK(pe.data[7 * 16 + 7] == Approx(std::cos(7.0 / std::pow(10000.0, 6.0 / 16.0))).margin(1e-7));
    // The last pair has the longest wavelength, so it moves slowest.
    CHECK(std::abs(pe.data[49 * 16 + 14]) < std::abs(pe.data[49 * 16 + 0]) + 1.0f);
    CHECK(pe.data[1 * 16 + 14] == Approx(std::sin(1.0 / std::pow(10000.0, 14.0 / 16.0))).margin(1e-7));
}

TEST_CASE("PE(pos+k) is a fixed rotation of PE(pos), the same for every pos", "[positional]") {
    const int64_t C = 32;
    const Tensor pe = sinusoidal_encoding(64, C);
    for (int k : {1, 5, 17}) {
        // For each pair (2i, 2i+1) rotate by angle k·ω_i: [sin(a+b), cos(a+b)] = R(b)·[sin a, cos a].
        for (int64_t pos = 0; pos + k < 64; pos += 7) {
            for (int64_t i = 0; i < C / 2; ++i) {
                const double w = 1.0 / std::pow(10000.0, 2.0 * i / C);
                const double s = pe.data[pos * C + 2 * i], c = pe.data[pos * C + 2 * i + 1];
                const double rotated_sin = s * std::cos(k * w) + c * std::sin(k * w);
                const double rotated_cos = c * std::cos(k * w) - s * std::sin(k * w);
                CHECK(pe.data[(pos + k) * C + 2 * i] == Approx(rotated_sin).margin(1e-5));
                CHECK(pe.data[(pos + k) * C + 2 * i + 1] == Approx(rotated_cos).margin(1e-5));
            }
        }
    }
}

TEST_CASE("PE in halves (Marian's layout) holds the same pairs as the interleaved one, sines first", "[positional]") {
    for (const int64_t C : {16, 7}) {  // an odd C keeps one more sine than cosines, as Marian's sentinel does
        const Tensor paper = sinusoidal_encoding(20, C);
        const Tensor halves = sinusoidal_encoding(20, C, SinusoidLayout::halves);
        const int64_t n_sines = (C + 1) / 2;
        for (int64_t pos = 0; pos < 20; ++pos) {
            for (int64_t i = 0; i < n_sines; ++i) CHECK(halves.data[pos * C + i] == paper.data[pos * C + 2 * i]);
            for (int64_t i = 0; i < C / 2; ++i)
                CHECK(halves.data[pos * C + n_sines + i] == paper.data[pos * C + 2 * i + 1]);
        }
        // Position 1's last sine and first cosine: sin(1/10000^(2(⌈C/2⌉−1)/C)) and cos(1) = 0.5403.
        CHECK(halves.data[C + n_sines - 1] ==
              Approx(std::sin(1.0 / std::pow(10000.0, 2.0 * (n_sines - 1) / C))).margin(1e-7));
        CHECK(halves.data[C + n_sines] == Approx(std::cos(1.0)).margin(1e-7));
    }
}
