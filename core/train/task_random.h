// Seeded draws for the training tasks, written out so a seed gives the same split and the same
// samples with every standard library (std::uniform_int_distribution differs between them).
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

namespace attnlab {

// Uniform in [0, n): rejection sampling over the largest multiple of n below 2^64, so no bias.
inline size_t draw_index(std::mt19937_64& rng, size_t n) {
    assert(n > 0);
    const uint64_t bound = static_cast<uint64_t>(n);
    const uint64_t max = std::numeric_limits<uint64_t>::max();
    const uint64_t limit = max - max % bound;
    uint64_t x = rng();
    while (x >= limit) x = rng();
    return static_cast<size_t>(x % bound);
}

// Fisher-Yates with draw_index.
template <class T>
void shuffle_seeded(std::vector<T>& items, std::mt19937_64& rng) {
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[draw_index(rng, i)]);
}

}  // namespace attnlab
