// Threads for the forward pass: one chunk per thread, on the kept workers (worker_pool.h) or, when another split
// holds them, on threads started for the call and joined before it returns.
#include "parallel.h"

#include "platform/threads.h"
#include "worker_pool.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <charconv>
#include <thread>
#include <vector>

namespace attnlab {

namespace {

std::atomic<int> g_thread_count{0};  // 0 = not chosen: every core
thread_local int t_serial_scopes = 0;  // SerialScopes alive on this thread

}  // namespace

SerialScope::SerialScope() { ++t_serial_scopes; }
SerialScope::~SerialScope() { --t_serial_scopes; }

int thread_count() {
    if (!platform::has_threads() || t_serial_scopes > 0) return 1;  // every split runs inline, with the same bits
    const int n = g_thread_count.load(std::memory_order_relaxed);
    return n > 0 ? n : platform::hardware_threads();
}

void set_thread_count(int n) {
    assert(n >= 1);
    g_thread_count.store(std::max(1, n), std::memory_order_relaxed);
}

std::optional<int> parse_thread_count(const std::string& text) {
    int n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || n < 1 || n > kMaxThreads) return std::nullopt;
    return n;
}

void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
    assert(grain >= 1);
    const int64_t units = (end - begin + grain - 1) / grain;  // grains, the last maybe short
    const int64_t chunks = std::min<int64_t>(thread_count(), units);
    if (chunks <= 1) {
        if (begin < end) body(begin, end);
        return;
    }
    auto bounds = [&](int64_t c) { return std::min(end, begin + (units * c / chunks) * grain); };
    if (run_on_worker_pool(chunks, [&](int64_t c) { body(bounds(c), bounds(c + 1)); })) return;
    std::vector<std::thread> helpers;
    helpers.reserve(static_cast<size_t>(chunks - 1));
    for (int64_t c = 1; c < chunks; ++c) helpers.emplace_back([&, c] { body(bounds(c), bounds(c + 1)); });
    body(bounds(0), bounds(1));
    for (auto& t : helpers) t.join();
}

void parallel_claim(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
    assert(grain >= 1);
    const int64_t grains = (end - begin + grain - 1) / grain;
    const int64_t threads = std::min<int64_t>(thread_count(), grains);
    std::atomic<int64_t> next{0};  // the first grain not yet claimed
    parallel_for(0, threads, 1, [&](int64_t, int64_t) {
        int64_t first = next.load(std::memory_order_relaxed);
        while (first < grains) {
            const int64_t take = std::max<int64_t>(1, (grains - first) / (2 * threads));
            if (!next.compare_exchange_weak(first, first + take, std::memory_order_relaxed)) continue;
            body(begin + first * grain, std::min(end, begin + (first + take) * grain));
            first = next.load(std::memory_order_relaxed);
        }
    });
}

void parallel_rows(int64_t rows, int64_t row_width, const std::function<void(int64_t, int64_t)>& body) {
    if (rows * row_width < kSplitRowEntries) {
        if (rows > 0) body(0, rows);
        return;
    }
    parallel_claim(0, rows, std::max<int64_t>(1, kClaimRowEntries / std::max<int64_t>(row_width, 1)), body);
}

}  // namespace attnlab
