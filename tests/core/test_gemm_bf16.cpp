// gemm's BF16-weight variants (core/ops/gemm.h): W kept as bfloat16 and widened as it is packed or read gives, bit
// for bit, the F32 gemm on the widened W, for both layouts, the single-row paths, ragged edges, K blocks, bias and
// the count of non-finite outputs; and linear_forward / linear_in_out_forward / linear_backward on a BF16 weight
// equal the same on its F32 widening.
#include "ops/gemm.h"
#include "ops/linear.h"
#include "tensor.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace attnlab;

namespace {

std::vector<float> normal_floats(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& f : v) f = d(rng);
    return v;
}

// BF16 bit patterns of random values (the upper halves of normal floats, so the low bits of W are 0 once widened).
std::vector<uint16_t> bf16_values(size_t n, uint32_t seed) {
    std::vector<uint16_t> out(n);
    const std::vector<float> f = normal_floats(n, seed);
    for (size_t i = 0; i < n; ++i) {
        uint32_t b;
        std::memcpy(&b, &f[i], sizeof b);
        out[i] = static_cast<uint16_t>(b >> 16);
    }
    return out;
}

std::vector<float> widen(const std::vector<uint16_t>& w) {
    std::vector<float> out(w.size());
    for (size_t i = 0; i < w.size(); ++i) out[i] = bf16_to_float(w[i]);
    return out;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

Tensor bf16_tensor(Shape shape, uint32_t seed) {
    Tensor t;
    t.bf16 = Bf16Buffer(bf16_values(static_cast<size_t>(shape_numel(shape)), seed));
    t.shape = std::move(shape);
    return t;
}

}  // namespace

TEST_CASE("gemm with BF16 weights equals the F32 gemm on the widened weights, bit for bit", "[gemm][bf16]") {
    // (N, K, n): single rows (both layouts' in-place paths), fewer rows than a tile, ragged panels and tiles, K past
    // one K block (512 / 256 deep), n past one block of panels, n past the single row's 1,024-column stretch.
    const std::vector<std::array<int64_t, 3>> shapes = {{1, 8, 16},    {1, 37, 53},   {1, 600, 1100}, {1, 64, 2100},
                                                        {2, 64, 48},   {3, 100, 97},  {9, 513, 50},   {17, 260, 200},
                                                        {33, 96, 1500}, {5, 1, 3},    {1, 7, 1}};
    uint32_t seed = 1;
    for (const auto& [N, K, n] : shapes) {
        CAPTURE(N, K, n);
        const std::vector<float> x = normal_floats(static_cast<size_t>(N * K), seed++);
        const std::vector<uint16_t> w = bf16_values(static_cast<size_t>(K * n), seed++);
        const std::vector<float> wide = widen(w);
        const std::vector<float> bias = normal_floats(static_cast<size_t>(n), seed++);
        for (const bool with_bias : {false, true}) {
            const GemmEpilogue none{};
            int64_t count_f32 = 0, count_bf16 = 0;
            const GemmEpilogue f32_epilogue{with_bias ? bias.data() : nullptr, &count_f32};
            const GemmEpilogue bf16_epilogue{with_bias ? bias.data() : nullptr, &count_bf16};
            std::vector<float> expected(static_cast<size_t>(N * n)), got(expected.size());
            // (K, n): in_out
            gemm_in_out(x.data(), N, K, K, wide.data(), n, n, expected.data(), n, with_bias ? f32_epilogue : none);
            gemm_in_out_bf16(x.data(), N, K, K, w.data(), n, n, got.data(), n, with_bias ? bf16_epilogue : none);
            CHECK(same_bits(expected, got));
            // the same values read as (n, K): out_in
            gemm_out_in(x.data(), N, K, K, wide.data(), K, n, expected.data(), n, with_bias ? f32_epilogue : none);
            gemm_out_in_bf16(x.data(), N, K, K, w.data(), K, n, got.data(), n, with_bias ? bf16_epilogue : none);
            CHECK(same_bits(expected, got));
            CHECK(count_f32 == count_bf16);
        }
    }
}

TEST_CASE("gemm with BF16 weights reads a column range of a wider W with its row stride", "[gemm][bf16]") {
    const int64_t N = 6, K = 70, stored = 150, first = 13, n = 90;
    const std::vector<float> x = normal_floats(static_cast<size_t>(N * K), 7);
    const std::vector<uint16_t> w = bf16_values(static_cast<size_t>(K * stored), 8);
    const std::vector<float> wide = widen(w);
    std::vector<float> expected(static_cast<size_t>(N * n)), got(expected.size());
    gemm_in_out(x.data(), N, K, K, wide.data() + first, stored, n, expected.data(), n);
    gemm_in_out_bf16(x.data(), N, K, K, w.data() + first, stored, n, got.data(), n);
    CHECK(same_bits(expected, got));
    // out_in: rows [first, first + n) of W (stored, K)... here W (150, 70) read as K = 70 columns
    std::vector<float> x2 = normal_floats(static_cast<size_t>(N * K), 9);
    gemm_out_in(x2.data(), N, K, K, wide.data() + first * K, K, n, expected.data(), n);
    gemm_out_in_bf16(x2.data(), N, K, K, w.data() + first * K, K, n, got.data(), n);
    CHECK(same_bits(expected, got));
}

TEST_CASE("linear maps on a BF16 weight equal those on its F32 widening", "[linear][bf16]") {
    const Tensor w = bf16_tensor({40, 24}, 3);  // (out, in) or (in, out)
    const Tensor wide = widened(w);
    REQUIRE(w.is_bf16());
    REQUIRE(!wide.is_bf16());
    REQUIRE(w.storage_bytes() * 2 == wide.storage_bytes());
    Tensor bias({40});
    for (int64_t i = 0; i < 40; ++i) bias.data[static_cast<size_t>(i)] = 0.25f * static_cast<float>(i);
    for (const int64_t N : {1, 5, 19}) {
        CAPTURE(N);
        Tensor x = Tensor::uninitialized({N, 24});
        const std::vector<float> xv = normal_floats(static_cast<size_t>(N * 24), 11);
        std::copy(xv.begin(), xv.end(), x.data.begin());
        CHECK(linear_forward(x, w, &bias, 3, 30).data == linear_forward(x, wide, &bias, 3, 30).data);
        Tensor x40 = Tensor::uninitialized({N, 40});
        const std::vector<float> xv40 = normal_floats(static_cast<size_t>(N * 40), 12);
        std::copy(xv40.begin(), xv40.end(), x40.data.begin());
        CHECK(linear_in_out_forward(x40, w, &bias, 2, 20).data == linear_in_out_forward(x40, wide, &bias, 2, 20).data);
        // dx = dy·W[rows]: the BF16 weight's by the gemm, F32's by Eigen; the same sums in another order
        Tensor dy = Tensor::uninitialized({N, 30});
        const std::vector<float> dyv = normal_floats(static_cast<size_t>(N * 30), 13);
        std::copy(dyv.begin(), dyv.end(), dy.data.begin());
        Tensor dw_bf16({40, 24}), dw_f32({40, 24});
        const Tensor dx = linear_backward(x, w, dy, &dw_bf16, nullptr, 3);
        const Tensor dx_f32 = linear_backward(x, wide, dy, &dw_f32, nullptr, 3);
        CHECK(dw_bf16.data == dw_f32.data);
        CHECK(dx.matrix().isApprox(dx_f32.matrix(), 1e-5f));
    }
}

TEST_CASE("a BF16 tensor widens exactly, row by row and value by value", "[bf16]") {
    const Tensor w = bf16_tensor({5, 7}, 21);
    const Tensor wide = widened(w);
    std::vector<float> row(7);
    for (int64_t r = 0; r < 5; ++r) {
        row_as_f32(w, r, row.data());
        for (int64_t c = 0; c < 7; ++c) {
            CHECK(row[static_cast<size_t>(c)] == wide.data[static_cast<size_t>(r * 7 + c)]);
            CHECK(w.value_at(r * 7 + c) == wide.data[static_cast<size_t>(r * 7 + c)]);
        }
    }
    const auto shared = std::make_shared<const Tensor>(w);
    const auto f32 = as_f32(shared);
    CHECK(f32 != shared);
    CHECK(f32->data == wide.data);
    const auto already = std::make_shared<const Tensor>(wide);
    CHECK(as_f32(already) == already);  // an F32 tensor is itself, not a copy
}
