// One job at a time. The caller publishes it under a new job number; worker w runs chunk w + 1 and the caller chunk
// 0, and then the caller runs every chunk no worker has claimed yet. Each chunk is claimed once, by whichever thread
// gets to it first, so a worker that other programs keep off the cores holds nothing up, while on a quiet machine
// each chunk runs where it ran the time before (the data it touched is in that core's cache). The caller waits only
// for chunks a worker has claimed. Workers poll for a millisecond before they sleep, since a pass's splits come
// microseconds apart.
#include "worker_pool.h"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace attnlab {

namespace {

// A spin-wait hint: x86's pause, Arm's yield; WebAssembly has none (and the page runs no worker threads).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

// How long a worker polls before it sleeps. A pass's serial stretches between splits (a step's bookkeeping, a small
// step on one thread) last up to a few hundred microseconds, and waking a sleeping worker costs 50-100 µs on a VM:
// at 50 µs of polling a SmolLM2-shaped pass slept and woke its worker about 160 times, at 1 ms about 25 times.
// A pause lasts from 10 to 140 cycles by CPU, so the poll is timed, not counted.
constexpr auto kPollBeforeSleep = std::chrono::milliseconds(1);
constexpr int kPausesPerClockRead = 64;

// The published word: bits 16-63 the job's number (from 1), bits 0-15 its chunk count.
constexpr int kJobShift = 16;
constexpr uint64_t kChunksMask = 0xffff;
constexpr int64_t kMostChunks = 256;  // parallel.h's kMaxThreads

class WorkerPool {
public:
    ~WorkerPool() {
        {
            std::lock_guard<std::mutex> lock(wake_mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
    }

    bool try_run(int64_t chunks, const std::function<void(int64_t)>& chunk) {
        if (inside_job_ || chunks > kMostChunks) return false;  // a chunk splitting again: the pool is this call's own
        std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
        if (!busy.owns_lock()) return false;
        inside_job_ = true;
        while (static_cast<int64_t>(workers_.size()) < chunks - 1)
            workers_.emplace_back([this, w = static_cast<int64_t>(workers_.size()), seen = published_job()] {
                work(w, seen);
            });
        const uint64_t job = published_job() + 1;
        job_ = &chunk;
        finished_.store(0, std::memory_order_relaxed);
        failure_ = nullptr;
        {
            std::lock_guard<std::mutex> lock(wake_mutex_);
            published_.store((job << kJobShift) | static_cast<uint64_t>(chunks), std::memory_order_release);
        }
        wake_.notify_all();
        for (int64_t c = 0; c < chunks; ++c)  // its own chunk, then any a worker has not claimed yet
            if (claim(c, job)) run(c);
        while (finished_.load(std::memory_order_acquire) < chunks) cpu_relax();
        inside_job_ = false;
        if (failure_) std::rethrow_exception(failure_);  // read after every chunk has finished
        return true;
    }

private:
    uint64_t published_job() const { return published_.load(std::memory_order_acquire) >> kJobShift; }

    // True when this thread now holds chunk c of job number `job`. A chunk's claim holds the number of the last job
    // that claimed it, and only a lower number gives way: a worker that wakes after its job has ended finds every
    // chunk of that job claimed, and claims nothing of a later job in its name.
    bool claim(int64_t c, uint64_t job) {
        std::atomic<uint64_t>& last = claimed_by_job_[static_cast<size_t>(c)];
        uint64_t seen = last.load(std::memory_order_acquire);
        while (seen < job)
            if (last.compare_exchange_weak(seen, job, std::memory_order_acq_rel, std::memory_order_acquire)) return true;
        return false;
    }

    // Runs a claimed chunk of the current job. The first exception a chunk throws is kept for the caller, and the
    // job's other chunks still run.
    void run(int64_t c) {
        try {
            (*job_)(c);
        } catch (...) {
            std::lock_guard<std::mutex> lock(failure_mutex_);
            if (!failure_) failure_ = std::current_exception();
        }
        finished_.fetch_add(1, std::memory_order_acq_rel);
    }

    // Worker w, started when jobs up to number `seen` were published: it runs chunk w + 1 of each job that has one,
    // unless the caller has claimed it first.
    void work(int64_t w, uint64_t seen) {
        inside_job_ = true;  // a chunk that splits again runs its split without the pool
        for (;;) {
            uint64_t word = published_.load(std::memory_order_acquire);
            const auto give_up = std::chrono::steady_clock::now() + kPollBeforeSleep;
            for (int spin = 1; (word >> kJobShift) == seen; ++spin) {
                cpu_relax();
                word = published_.load(std::memory_order_acquire);
                if (spin % kPausesPerClockRead == 0 && std::chrono::steady_clock::now() > give_up) break;
            }
            if ((word >> kJobShift) == seen) {
                std::unique_lock<std::mutex> lock(wake_mutex_);
                wake_.wait(lock, [&] { return stopping_ || published_job() != seen; });
                if (stopping_) return;
                word = published_.load(std::memory_order_acquire);
            }
            seen = word >> kJobShift;
            if (w + 1 < static_cast<int64_t>(word & kChunksMask) && claim(w + 1, seen)) run(w + 1);
        }
    }

    std::mutex busy_;  // held by the call whose job this is
    std::vector<std::thread> workers_;
    // The job's chunk function: written before the published word names the job, read only by a thread holding one
    // of its chunks, and the caller does not return (ending the function's life) before every chunk has finished.
    const std::function<void(int64_t)>* job_ = nullptr;
    std::atomic<uint64_t> published_{0};
    std::array<std::atomic<uint64_t>, kMostChunks> claimed_by_job_{};  // per chunk: the last job that claimed it
    std::atomic<int64_t> finished_{0};  // chunks of the current job run to their end
    std::mutex failure_mutex_;
    std::exception_ptr failure_;  // the first exception a chunk of the current job threw
    std::mutex wake_mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    static thread_local bool inside_job_;
};

thread_local bool WorkerPool::inside_job_ = false;

}  // namespace

bool run_on_worker_pool(int64_t chunks, const std::function<void(int64_t)>& chunk) {
    static WorkerPool pool;
    return pool.try_run(chunks, chunk);
}

}  // namespace attnlab
