// Windows of seq_len + 1 ids over a token stream, taken B at a time in file order or a seeded order per pass.
#include "train/token_windows.h"

#include "train/task_random.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <random>
#include <string>

namespace attnlab {

Result<TokenWindows> TokenWindows::make(std::vector<int> ids, int seq_len, int batch_size,
                                        std::optional<uint64_t> shuffle_seed) {
    if (seq_len < 1) return Error{"seq-len must be at least 1, got " + std::to_string(seq_len)};
    if (batch_size < 1) return Error{"batch size must be at least 1, got " + std::to_string(batch_size)};
    const int64_t n = static_cast<int64_t>(ids.size());
    if (n < int64_t{seq_len} + 1)
        return Error{"the data has " + std::to_string(n) + " token ids; one window of seq-len " +
                     std::to_string(seq_len) + " needs " + std::to_string(int64_t{seq_len} + 1)};
    return TokenWindows(std::move(ids), seq_len, batch_size, shuffle_seed);
}

TokenWindows::TokenWindows(std::vector<int> ids, int seq_len, int batch_size, std::optional<uint64_t> shuffle_seed)
    : ids_(std::move(ids)),
      seq_len_(seq_len),
      batch_size_(batch_size),
      n_windows_((static_cast<int64_t>(ids_.size()) - 1) / seq_len),
      shuffle_seed_(shuffle_seed) {}

std::vector<int64_t> TokenWindows::shuffled_order(int64_t n_windows, uint64_t seed, int64_t epoch) {
    assert(n_windows >= 0 && epoch >= 0);
    const auto e = static_cast<uint64_t>(epoch);
    std::seed_seq words{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), static_cast<uint32_t>(e),
                        static_cast<uint32_t>(e >> 32)};
    std::mt19937_64 rng(words);
    std::vector<int64_t> order(static_cast<size_t>(n_windows));
    std::iota(order.begin(), order.end(), int64_t{0});
    shuffle_seeded(order, rng);
    return order;
}

int64_t TokenWindows::window_at(int64_t i) {
    assert(i >= 0);
    const int64_t slot = i % n_windows_;
    if (!shuffle_seed_) return slot;
    const int64_t epoch = i / n_windows_;
    if (epoch != order_epoch_) {
        order_ = shuffled_order(n_windows_, *shuffle_seed_, epoch);
        order_epoch_ = epoch;
    }
    return order_[static_cast<size_t>(slot)];
}

WindowBatch TokenWindows::batch(int64_t k) {
    assert(k >= 0);
    const int B = batch_size_, T = seq_len_;
    WindowBatch out{B, T, std::vector<int64_t>(static_cast<size_t>(B)), std::vector<int>(static_cast<size_t>(B) * T),
                    std::vector<int>(static_cast<size_t>(B) * T)};
    for (int b = 0; b < B; ++b) {
        const int64_t w = window_at(k * B + b);
        out.windows[static_cast<size_t>(b)] = w;
        const int* window = ids_.data() + w * T;  // T + 1 ids
        std::copy(window, window + T, out.inputs.begin() + static_cast<int64_t>(b) * T);
        std::copy(window + 1, window + T + 1, out.targets.begin() + static_cast<int64_t>(b) * T);
    }
    return out;
}

}  // namespace attnlab
