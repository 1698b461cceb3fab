// One job at a time: the caller publishes it under a new generation number, each worker w runs chunk w + 1 (if the
// job has one) and counts down `remaining`, the caller runs chunk 0 and then waits for the count to reach zero.
// Every worker counts down, the idle ones too, so none is still reading a job when the next one is written.
// Workers poll for a millisecond before they sleep, since a pass's splits come microseconds apart.
#include "worker_pool.h"

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
        if (inside_job_) return false;  // a chunk splitting again: the pool is this call's own
        std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
        if (!busy.owns_lock()) return false;
        inside_job_ = true;
        while (static_cast<int64_t>(workers_.size()) < chunks - 1)
            workers_.emplace_back([this, w = static_cast<int64_t>(workers_.size()),
                                   seen = generation_.load(std::memory_order_relaxed)] { work(w, seen); });
        job_ = &chunk;
        chunks_ = chunks;
        remaining_.store(static_cast<int64_t>(workers_.size()), std::memory_order_relaxed);
        {
            std::lock_guard<std::mutex> lock(wake_mutex_);
            generation_.fetch_add(1, std::memory_order_release);
        }
        wake_.notify_all();
        std::exception_ptr failure;
        try {
            chunk(0);
        } catch (...) {  // rethrown once no worker still reads the job (whose captures live on the caller's stack)
            failure = std::current_exception();
        }
        while (remaining_.load(std::memory_order_acquire) > 0) cpu_relax();
        inside_job_ = false;
        if (failure) std::rethrow_exception(failure);
        return true;
    }

private:
    // Worker w, started when the jobs up to generation `seen` were published.
    void work(int64_t w, uint64_t seen) {
        inside_job_ = true;  // a chunk that splits again runs its split without the pool
        for (;;) {
            uint64_t now = generation_.load(std::memory_order_acquire);
            const auto give_up = std::chrono::steady_clock::now() + kPollBeforeSleep;
            for (int spin = 1; now == seen; ++spin) {
                cpu_relax();
                now = generation_.load(std::memory_order_acquire);
                if (spin % kPausesPerClockRead == 0 && std::chrono::steady_clock::now() > give_up) break;
            }
            if (now == seen) {
                std::unique_lock<std::mutex> lock(wake_mutex_);
                wake_.wait(lock, [&] { return stopping_ || generation_.load(std::memory_order_acquire) != seen; });
                if (stopping_) return;
                now = generation_.load(std::memory_order_acquire);
            }
            seen = now;
            if (w + 1 < chunks_) (*job_)(w + 1);
            remaining_.fetch_sub(1, std::memory_order_release);
        }
    }

    std::mutex busy_;  // held by the call whose job this is
    std::vector<std::thread> workers_;
    const std::function<void(int64_t)>* job_ = nullptr;  // written before generation_ moves on, read after
    int64_t chunks_ = 0;
    std::atomic<int64_t> remaining_{0};  // workers not yet done with the job
    std::atomic<uint64_t> generation_{0};
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
