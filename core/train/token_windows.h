// A stream of token ids cut into training windows, and the batches of next-token pairs taken from them.
//   T = seq_len, B = batch size, n = number of ids
//   window w      = ids[w·T … w·T + T]        (T + 1 ids; window w's last id is window w + 1's first)
//   n_windows     = floor((n − 1) / T)        (the ids after the last whole window are not used)
//   batch k, row b: window order(k·B + b)     (b = 0 … B − 1)
//   inputs[b]  = window[0 … T − 1]    (B, T)
//   targets[b] = window[1 … T]        (B, T)   the next token of each input position
// Without shuffling, order(i) = i mod n_windows: the windows in file order, round and round.
// With a shuffle seed, pass (epoch) e = floor(i / n_windows) takes the windows in its own order:
//   order(i) = perm_e[i mod n_windows], perm_e = Fisher–Yates over 0 … n_windows − 1 (train/task_random.h's
//   shuffle_seeded, the same on every standard library) driven by std::mt19937_64 seeded with
//   std::seed_seq{seed mod 2^32, seed / 2^32, e mod 2^32, e / 2^32}.
#pragma once

#include "result.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace attnlab {

struct WindowBatch {
    int B = 0, T = 0;
    std::vector<int64_t> windows;  // (B): the window each row was taken from
    std::vector<int> inputs;       // (B, T) row-major
    std::vector<int> targets;      // (B, T)
};

class TokenWindows {
public:
    // Errors (one line): seq_len or batch_size below 1, or fewer ids than one window needs (seq_len + 1).
    static Result<TokenWindows> make(std::vector<int> ids, int seq_len, int batch_size,
                                     std::optional<uint64_t> shuffle_seed);

    int64_t n_windows() const { return n_windows_; }
    int seq_len() const { return seq_len_; }
    int batch_size() const { return batch_size_; }

    // The window at position i ≥ 0 of the order above.
    int64_t window_at(int64_t i);
    // Batch k ≥ 0. Not const: a shuffled order keeps the last pass's permutation to reuse.
    WindowBatch batch(int64_t k);

    // Pass e's permutation of 0 … n_windows − 1 (the formula above).
    static std::vector<int64_t> shuffled_order(int64_t n_windows, uint64_t seed, int64_t epoch);

private:
    TokenWindows(std::vector<int> ids, int seq_len, int batch_size, std::optional<uint64_t> shuffle_seed);

    std::vector<int> ids_;
    int seq_len_ = 0;
    int batch_size_ = 0;
    int64_t n_windows_ = 0;
    std::optional<uint64_t> shuffle_seed_;
    int64_t order_epoch_ = -1;    // the pass `order_` belongs to; -1: none yet
    std::vector<int64_t> order_;  // (n_windows)
};

}  // namespace attnlab
