// The process-wide choice of BF16 products and the CPU check behind it.
#include "ops/gemm_bf16_products.h"

#include "ops/gemm_bf16_dot.h"

#include <atomic>

namespace attnlab {

namespace {

// What runs, not what was asked: the gemm reads it once per product, so the CPU check is not repeated there.
std::atomic<Bf16Products> g_in_use{Bf16Products::exact};

}  // namespace

const char* to_string(Bf16Products products) { return products == Bf16Products::dot_bf16 ? "dot" : "exact"; }

std::optional<Bf16Products> parse_bf16_products(std::string_view text) {
    if (text == "exact") return Bf16Products::exact;
    if (text == "dot") return Bf16Products::dot_bf16;
    return std::nullopt;
}

bool cpu_has_bf16_dot() {
#if ATTNLAB_BF16_DOT
    // libgcc's and compiler-rt's checks count AVX-512 only where the OS saves the zmm registers (XGETBV).
    static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16");
    return has;
#else
    return false;
#endif
}

Bf16Products set_bf16_products(Bf16Products asked) {
    const Bf16Products in_use = asked == Bf16Products::dot_bf16 && cpu_has_bf16_dot() ? asked : Bf16Products::exact;
    g_in_use.store(in_use, std::memory_order_relaxed);
    return in_use;
}

Bf16Products bf16_products() { return g_in_use.load(std::memory_order_relaxed); }

}  // namespace attnlab
