// parallel_for on the kept worker threads (worker_pool.h): every index once, in contiguous chunks, whatever the
// thread count; the same workers from call to call; a caller that does not wait for a sleeping worker; nested and
// concurrent calls; an exception from a chunk.
#include "parallel.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace attnlab;

namespace {

// Restores the thread count a test changes.
struct ThreadCountScope {
    int saved = thread_count();
    explicit ThreadCountScope(int n) { set_thread_count(n); }
    ~ThreadCountScope() { set_thread_count(saved); }
};

// How often each index of [begin, end) was visited, and the chunks seen.
struct Visits {
    std::vector<std::atomic<int>> count;
    std::mutex mutex;
    std::vector<std::pair<int64_t, int64_t>> chunks;
    explicit Visits(int64_t n) : count(static_cast<size_t>(n)) {}
    void run(int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) ++count[static_cast<size_t>(i)];
        std::lock_guard<std::mutex> lock(mutex);
        chunks.emplace_back(begin, end);
    }
    bool each_once() const {
        for (const auto& c : count)
            if (c.load() != 1) return false;
        return true;
    }
};

}  // namespace

TEST_CASE("parallel_for visits every index once, in at most thread_count() chunks of whole grains", "[parallel]") {
    for (const int threads : {1, 2, 3, 8}) {
        const ThreadCountScope scope(threads);
        for (const int64_t grain : {1, 7, 48}) {
            for (const int64_t n : {0, 1, 5, 100, 1000}) {
                Visits visits(n);
                parallel_for(0, n, grain, [&](int64_t b, int64_t e) { visits.run(b, e); });
                INFO("threads " << threads << ", grain " << grain << ", n " << n);
                CHECK(visits.each_once());
                CHECK(static_cast<int>(visits.chunks.size()) <= threads);
                for (const auto& [b, e] : visits.chunks) {
                    CHECK(b < e);
                    CHECK(b % grain == 0);
                    if (e != n) CHECK(e % grain == 0);
                }
            }
        }
    }
}

TEST_CASE("parallel_for runs the chunks the caller does not take on the same kept threads from call to call",
          "[parallel][needs_threads]") {
    const ThreadCountScope scope(2);
    // A thread_local starts afresh on every new thread (a thread id may be reused, its thread_locals are not): on a
    // kept worker, the count of chunks it ran goes on rising from call to call, so the highest count each worker
    // reached sums to the chunks the workers ran. Threads started per call would each stop at 1.
    static thread_local int chunks_run_here = 0;
    const std::thread::id caller = std::this_thread::get_id();
    std::mutex mutex;
    int on_workers = 0;
    std::map<std::thread::id, int> highest_count;
    for (int call = 0; call < 20; ++call)
        parallel_for(0, 2, 1, [&](int64_t, int64_t) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a worker wakes while the caller's runs
            if (std::this_thread::get_id() == caller) return;
            const int here = ++chunks_run_here;
            std::lock_guard<std::mutex> lock(mutex);
            ++on_workers;
            highest_count[std::this_thread::get_id()] = here;
        });
    int summed = 0;
    for (const auto& [id, count] : highest_count) summed += count;
    CHECK(on_workers > 0);
    CHECK(summed == on_workers);
    CHECK(chunks_run_here == 0);
}

TEST_CASE("parallel_for's caller runs the chunks of a worker that has not woken yet", "[parallel][needs_threads]") {
    const ThreadCountScope scope(2);
    const std::thread::id caller = std::this_thread::get_id();
    // After 20 ms without a job the worker sleeps, and waking it takes tens of microseconds; the caller's chunks
    // take none, so it claims the second chunk long before the worker is up. Five tries, so that a caller taken off
    // its core at the wrong moment cannot fail the test.
    int calls_all_on_caller = 0;
    for (int call = 0; call < 5; ++call) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::atomic<int> on_caller{0};
        Visits visits(2);
        parallel_for(0, 2, 1, [&](int64_t b, int64_t e) {
            if (std::this_thread::get_id() == caller) ++on_caller;
            visits.run(b, e);
        });
        CHECK(visits.each_once());
        if (on_caller.load() == 2) ++calls_all_on_caller;
    }
    CHECK(calls_all_on_caller > 0);
}

TEST_CASE("parallel_for nested in a chunk, and called from several threads at once, still visits every index once",
          "[parallel][needs_threads]") {
    const ThreadCountScope scope(2);
    SECTION("nested") {
        Visits outer(4), inner(4 * 100);
        parallel_for(0, 4, 1, [&](int64_t b, int64_t e) {
            outer.run(b, e);
            for (int64_t i = b; i < e; ++i)
                parallel_for(i * 100, (i + 1) * 100, 1, [&](int64_t ib, int64_t ie) { inner.run(ib, ie); });
        });
        CHECK(outer.each_once());
        CHECK(inner.each_once());
    }
    SECTION("concurrent callers") {
        constexpr int kCallers = 4;
        std::vector<std::unique_ptr<Visits>> visits;
        for (int c = 0; c < kCallers; ++c) visits.push_back(std::make_unique<Visits>(10000));
        std::vector<std::thread> callers;
        for (int c = 0; c < kCallers; ++c)
            callers.emplace_back([&, c] {
                for (int rep = 0; rep < 50; ++rep) {
                    Visits once(10000);
                    parallel_for(0, 10000, 16, [&](int64_t b, int64_t e) { once.run(b, e); });
                    if (!once.each_once()) return;  // visits[c] stays unvisited: the check below fails
                }
                parallel_for(0, 10000, 16, [&](int64_t b, int64_t e) { visits[static_cast<size_t>(c)]->run(b, e); });
            });
        for (auto& t : callers) t.join();
        for (const auto& v : visits) CHECK(v->each_once());
    }
}

TEST_CASE("an exception from a chunk reaches the caller, and the threads stay usable", "[parallel][needs_threads]") {
    const ThreadCountScope scope(2);
    std::atomic<int> second_chunk_runs{0};
    CHECK_THROWS_AS(parallel_for(0, 2, 1,
                                 [&](int64_t b, int64_t) {
                                     if (b == 0) throw std::runtime_error("chunk 0");
                                     ++second_chunk_runs;
                                 }),
                    std::runtime_error);
    CHECK(second_chunk_runs.load() == 1);  // the other chunk ran to its end before the exception left
    Visits visits(1000);
    parallel_for(0, 1000, 1, [&](int64_t b, int64_t e) { visits.run(b, e); });
    CHECK(visits.each_once());
    CHECK(visits.chunks.size() == 2);
}

TEST_CASE("parallel_rows splits a pass only from kSplitRowEntries entries, in grains of kClaimRowEntries",
          "[parallel]") {
    const ThreadCountScope scope(2);
    const int64_t width = 64, few_rows = kSplitRowEntries / width - 1, many_rows = kSplitRowEntries / width;
    for (const int64_t rows : {few_rows, many_rows}) {
        Visits visits(rows);
        parallel_rows(rows, width, [&](int64_t b, int64_t e) { visits.run(b, e); });
        CHECK(visits.each_once());
        if (rows == few_rows) CHECK(visits.chunks.size() == 1u);
        if (rows == many_rows) CHECK(visits.chunks.size() >= 2u);
        for (const auto& [b, e] : visits.chunks) CHECK(b % (kClaimRowEntries / width) == 0);  // whole claimed grains
    }
}

TEST_CASE(
    "parallel_claim runs every index once, in pieces of whole grains that shrink, and a thread that is held up "
    "does less",
    "[parallel][needs_threads]") {
    for (const int threads : {1, 2, 3}) {
        const ThreadCountScope scope(threads);
        for (const int64_t grain : {1, 7, 48}) {
            for (const int64_t n : {0, 1, 5, 100, 1000}) {
                Visits visits(n);
                parallel_claim(0, n, grain, [&](int64_t b, int64_t e) { visits.run(b, e); });
                INFO("threads " << threads << ", grain " << grain << ", n " << n);
                CHECK(visits.each_once());
                std::sort(visits.chunks.begin(), visits.chunks.end());
                for (size_t c = 0; c < visits.chunks.size(); ++c) {
                    const auto [b, e] = visits.chunks[c];
                    CHECK((b % grain == 0 && (e == n || e % grain == 0)));
                    // Claimed front to back, each piece at most what the one before it was.
                    if (c > 0 && e != n) CHECK(e - b <= visits.chunks[c - 1].second - visits.chunks[c - 1].first);
                }
                const int64_t grains = (n + grain - 1) / grain;
                if (grains > 0) CHECK(visits.chunks.back().second - visits.chunks.back().first <= grain);
            }
        }
    }
    // 64 grains on 2 threads, the calling thread held up 200 ms in each piece it takes and the other 1 ms: a fixed
    // split would give each thread 32; claiming, the caller takes one piece of 16 (64 / 4) or at most one more.
    const ThreadCountScope scope(2);
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<int64_t> on_caller{0};
    Visits visits(64);
    parallel_claim(0, 64, 1, [&](int64_t b, int64_t e) {
        const bool held_up = std::this_thread::get_id() == caller;
        if (held_up) on_caller += e - b;
        std::this_thread::sleep_for(std::chrono::milliseconds(held_up ? 200 : 1));
        visits.run(b, e);
    });
    CHECK(visits.each_once());
    CHECK(on_caller.load() <= 16 + 12);
}
