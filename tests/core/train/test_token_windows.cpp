// Tests for core/train/token_windows: windows of seq_len + 1 ids over a stream, hand-worked batches (the shared
// boundary id, the dropped partial window, the wrap-around modulo the number of windows), the errors, and the
// seeded order of each pass.
#include "train/token_windows.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

using namespace attnlab;

namespace {

TokenWindows windows_or_fail(std::vector<int> ids, int seq_len, int batch_size,
                             std::optional<uint64_t> seed = std::nullopt) {
    Result<TokenWindows> w = TokenWindows::make(std::move(ids), seq_len, batch_size, seed);
    REQUIRE(w.ok());
    return std::move(w).value();
}

std::vector<int64_t> iota_order(int64_t n) {
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), int64_t{0});
    return order;
}

}  // namespace

TEST_CASE("token windows: the stream cut at offsets 0, T, 2T, with the partial window dropped", "[token_windows]") {
    // ids 10 … 20 (n = 11), T = 4: window 0 = 10 11 12 13 14, window 1 = 14 15 16 17 18; 19 20 start a
    // window that never fills. n_windows = floor((11 − 1) / 4) = 2.
    TokenWindows w = windows_or_fail({10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, 4, 3);
    CHECK(w.n_windows() == 2);
    CHECK(w.seq_len() == 4);
    CHECK(w.batch_size() == 3);

    // Batch 0 takes windows 0, 1 and (2 mod 2 =) 0 again.
    const WindowBatch b0 = w.batch(0);
    CHECK(b0.B == 3);
    CHECK(b0.T == 4);
    CHECK(b0.windows == std::vector<int64_t>{0, 1, 0});
    CHECK(b0.inputs == std::vector<int>{10, 11, 12, 13, /**/ 14, 15, 16, 17, /**/ 10, 11, 12, 13});
    CHECK(b0.targets == std::vector<int>{11, 12, 13, 14, /**/ 15, 16, 17, 18, /**/ 11, 12, 13, 14});
    // The boundary id 14 is window 0's last target and window 1's first input; 19 and 20 are never used.
    CHECK(b0.targets[3] == b0.inputs[4]);
    CHECK(std::count(b0.targets.begin(), b0.targets.end(), 19) == 0);

    // Batch 1 takes positions 3, 4, 5: windows 1, 0, 1.
    const WindowBatch b1 = w.batch(1);
    CHECK(b1.windows == std::vector<int64_t>{1, 0, 1});
    CHECK(b1.inputs == std::vector<int>{14, 15, 16, 17, /**/ 10, 11, 12, 13, /**/ 14, 15, 16, 17});
    CHECK(b1.targets == std::vector<int>{15, 16, 17, 18, /**/ 11, 12, 13, 14, /**/ 15, 16, 17, 18});
}

TEST_CASE("token windows: the number of whole windows at the edges", "[token_windows]") {
    CHECK(windows_or_fail({1, 2, 3, 4}, 3, 1).n_windows() == 1);        // exactly T + 1 ids
    CHECK(windows_or_fail({1, 2, 3, 4, 5, 6}, 3, 1).n_windows() == 1);  // 2T ids: the second window lacks one
    CHECK(windows_or_fail({1, 2, 3, 4, 5, 6, 7}, 3, 1).n_windows() == 2);
    CHECK(windows_or_fail({5, 6}, 1, 1).n_windows() == 1);

    // T = 1: each window is a pair, and the pairs overlap by one id.
    TokenWindows w = windows_or_fail({5, 6, 7}, 1, 4);
    const WindowBatch b = w.batch(0);
    CHECK(b.inputs == std::vector<int>{5, 6, 5, 6});
    CHECK(b.targets == std::vector<int>{6, 7, 6, 7});
}

TEST_CASE("token windows: a batch far on wraps modulo the number of windows", "[token_windows]") {
    // ids 0 … 9, T = 3: windows start at 0, 3, 6 (n_windows = 3); batch 7 with B = 2 takes positions 14, 15,
    // that is windows 2 and 0.
    std::vector<int> ids(10);
    std::iota(ids.begin(), ids.end(), 0);
    TokenWindows w = windows_or_fail(ids, 3, 2);
    const WindowBatch b = w.batch(7);
    CHECK(b.windows == std::vector<int64_t>{2, 0});
    CHECK(b.inputs == std::vector<int>{6, 7, 8, 0, 1, 2});
    CHECK(b.targets == std::vector<int>{7, 8, 9, 1, 2, 3});
}

TEST_CASE("token windows: errors", "[token_windows]") {
    const auto message = [](std::vector<int> ids, int seq_len, int batch_size) {
        Result<TokenWindows> w = TokenWindows::make(std::move(ids), seq_len, batch_size, std::nullopt);
        REQUIRE_FALSE(w.ok());
        return w.error().message;
    };
    CHECK(message({1, 2, 3}, 3, 1) == "the data has 3 token ids; one window of seq-len 3 needs 4");
    CHECK(message({1}, 1, 1) == "the data has 1 token ids; one window of seq-len 1 needs 2");
    CHECK(message({1, 2, 3}, 0, 1) == "seq-len must be at least 1, got 0");
    CHECK(message({1, 2, 3}, 1, 0) == "batch size must be at least 1, got 0");
    CHECK(message({1, 2, 3}, 1, -2) == "batch size must be at least 1, got -2");
}

TEST_CASE("token windows: a pass's shuffled order is a seeded permutation, fresh each pass", "[token_windows]") {
    const std::vector<int64_t> order = TokenWindows::shuffled_order(10, 42, 0);
    std::vector<int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == iota_order(10));
    CHECK(order != iota_order(10));
    CHECK(TokenWindows::shuffled_order(10, 42, 0) == order);  // deterministic
    CHECK(TokenWindows::shuffled_order(10, 42, 1) != order);  // another pass, another order
    CHECK(TokenWindows::shuffled_order(10, 43, 0) != order);  // another seed
    // seed_seq, mt19937_64 and shuffle_seeded are the same on every standard library: pinned, so a change of
    // library or of the formula shows.
    CHECK(order == std::vector<int64_t>{0, 6, 5, 1, 3, 9, 7, 8, 4, 2});
    CHECK(TokenWindows::shuffled_order(1, 42, 0) == std::vector<int64_t>{0});
    CHECK(TokenWindows::shuffled_order(0, 42, 0).empty());
}

TEST_CASE("token windows: with a seed, each pass takes every window once, in that pass's order", "[token_windows]") {
    // ids 0 … 15, T = 3: 5 windows. B = 2: positions 2k and 2k + 1; pass e covers positions 5e … 5e + 4.
    std::vector<int> ids(16);
    std::iota(ids.begin(), ids.end(), 0);
    TokenWindows w = windows_or_fail(ids, 3, 2, uint64_t{7});
    const std::vector<int64_t> pass0 = TokenWindows::shuffled_order(5, 7, 0);
    const std::vector<int64_t> pass1 = TokenWindows::shuffled_order(5, 7, 1);
    REQUIRE(pass0 != pass1);

    const WindowBatch b0 = w.batch(0), b2 = w.batch(2);
    CHECK(b0.windows == std::vector<int64_t>{pass0[0], pass0[1]});
    CHECK(b2.windows == std::vector<int64_t>{pass0[4], pass1[0]});  // straddles passes 0 and 1
    // Each row holds its window's ids: window v = ids 3v … 3v + 3.
    for (int b = 0; b < 2; ++b) {
        const int v = static_cast<int>(b2.windows[static_cast<size_t>(b)]);
        CHECK(std::vector<int>(b2.inputs.begin() + 3 * b, b2.inputs.begin() + 3 * b + 3) ==
              std::vector<int>{3 * v, 3 * v + 1, 3 * v + 2});
        CHECK(std::vector<int>(b2.targets.begin() + 3 * b, b2.targets.begin() + 3 * b + 3) ==
              std::vector<int>{3 * v + 1, 3 * v + 2, 3 * v + 3});
    }

    // Pass 0's positions 0 … 4 visit each window once.
    std::vector<int64_t> seen;
    for (int64_t i = 0; i < 5; ++i) seen.push_back(w.window_at(i));
    CHECK(seen == pass0);

    // Random access in any order gives the same batches as a fresh reader (the kept permutation is per pass).
    TokenWindows fresh = windows_or_fail(ids, 3, 2, uint64_t{7});
    const WindowBatch late = w.batch(11);
    CHECK(w.batch(1).windows == fresh.batch(1).windows);
    CHECK(late.windows == fresh.batch(11).windows);
}
