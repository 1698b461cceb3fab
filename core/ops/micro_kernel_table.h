// The table of a gemm's micro-kernels by tile size, made at compile time: entry [v - 1][r - 1] is the kernel for a
// tile of r rows of v vector registers, so that a partial panel or a short last block costs what its size needs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace attnlab {

// Kernels: a type whose `template <int R, int V> static constexpr Kernel of()` names the kernel for r rows of v
// registers. The table holds `Widths` rows of `Rows` kernels each.
template <typename Kernel, int64_t Widths, int64_t Rows, typename Kernels>
constexpr auto micro_kernel_table() {
    using Row = std::array<Kernel, static_cast<std::size_t>(Rows)>;
    auto row_of_width = []<int V, std::size_t... R>(std::index_sequence<R...>) {
        return Row{Kernels::template of<static_cast<int>(R) + 1, V>()...};
    };
    auto rows = [&]<std::size_t... V>(std::index_sequence<V...>) {
        return std::array<Row, sizeof...(V)>{
            row_of_width.template operator()<static_cast<int>(V) + 1>(std::make_index_sequence<Rows>())...};
    };
    return rows(std::make_index_sequence<Widths>());
}

}  // namespace attnlab
