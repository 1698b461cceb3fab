// How gemm_in_out_bf16 and gemm_out_in_bf16 (gemm.h) form their products: one choice for the whole process, made once
// (attnlab-cli's --bf16-products) before any product runs and read by every BF16 product after it, the forward's and
// the backward's alike.
#pragma once

#include <optional>
#include <string_view>

namespace attnlab {

enum class Bf16Products {
    // W's values widened to floats and multiplied by the F32 micro-kernels: every output equals, bit for bit, the F32
    // gemm on the widened W (gemm.h's contract). The default.
    exact,
    // x rounded to BF16 (to nearest, ties to even) and paired with W's BF16 values by AVX512_BF16's vdpbf16ps, which
    // multiplies two pairs exactly and adds them into an F32 sum: each output is Σ_k bf16(x[k])·W(k, j) in F32, the
    // terms added in another order than the exact path's chain. Only on a CPU with AVX512_BF16 (x86-64 builds).
    dot_bf16,
};

// "exact" or "dot": the flag's value and what attnlab-cli prints.
const char* to_string(Bf16Products products);
// "exact" or "dot"; nullopt for anything else.
std::optional<Bf16Products> parse_bf16_products(std::string_view text);

// Whether this build on this CPU can run dot_bf16: an x86-64 build, and a CPU (and OS) with AVX-512 F, BW, VL and
// BF16.
bool cpu_has_bf16_dot();

// Asks for `asked` and returns what will run: dot_bf16 asked on a CPU without it runs exact.
Bf16Products set_bf16_products(Bf16Products asked);
// What runs now (exact until set_bf16_products asks otherwise).
Bf16Products bf16_products();

}  // namespace attnlab
