// LatestRequestRun<Request, Result>: long work off the window's thread when only the newest request matters (a grid
// for the input and choices shown now). A new request replaces an older one: one still waiting is dropped, and one
// running stops at its next progress report or stage (the reporter says it is no longer wanted) with its result
// dropped. cancel() does the same with no new request.
// In WorkMode::own_thread the requests run on a thread of the run's own; in WorkMode::between_frames (the web page,
// no threads) pump() runs the newest request whole on the window's thread: the same work, the same numbers.
// The window polls: progress() while it runs, take() once it has ended. Nothing here touches ImGui or the Session.
// Result has a member `uint64_t serial`, set to the number of the request it answers.
#pragma once

#include "analysis/grid_progress.h"
#include "work_mode.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace attnlab::gui {

// What the work is given besides its request: where to count its cells (which answers whether to go on: a grid
// given it stops once its result is no longer wanted), and whether its result is still wanted.
struct RunReporter {
    GridProgress progress;
    std::function<bool()> wanted;
};

template <class Request, class Result>
class LatestRequestRun {
public:
    using Work = std::function<Result(const Request&, const RunReporter&)>;

    LatestRequestRun(Work work, WorkMode mode) : work_(std::move(work)), mode_(mode) {}
    LatestRequestRun(const LatestRequestRun&) = delete;
    LatestRequestRun& operator=(const LatestRequestRun&) = delete;
    ~LatestRequestRun() {  // drops what waits, lets the running request end, joins
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
            wanted_ = 0;
            waiting_.reset();
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

    WorkMode mode() const { return mode_; }

    // Queues `request` in place of any other; returns its number (1, 2, ...).
    uint64_t request(Request request) {
        uint64_t serial = 0;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            serial = next_serial_++;
            wanted_ = serial;
            waiting_ = Job{serial, std::move(request)};
            done_.reset();
            requested_ = std::chrono::steady_clock::now();
            if (mode_ == WorkMode::own_thread && !thread_.joinable()) thread_ = std::thread([this] { loop(); });
        }
        wake_.notify_all();
        return serial;
    }

    // No result is wanted any more: the waiting request goes, the running one's result too.
    void cancel() {
        const std::lock_guard<std::mutex> lock(mutex_);
        wanted_ = 0;
        waiting_.reset();
        done_.reset();
    }

    // Between frames: runs the waiting request whole. Nothing in own_thread mode.
    void pump() {
        if (mode_ != WorkMode::between_frames) return;
        std::optional<Job> job;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            job = std::move(waiting_);
            waiting_.reset();
        }
        if (job) run(*job);
    }

    // Whether the newest request's result is still to come.
    bool busy() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return wanted_ != 0 && !(done_ && done_->serial == wanted_);
    }

    struct Progress {
        int64_t done = 0, total = 0;  // the work's cells (total 0: not counting yet)
        double seconds = 0.0;         // since the request
    };
    // The newest request's counts; they stay at the end until the result is taken.
    Progress progress() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        Progress p;
        p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - requested_).count();
        if (wanted_ != 0 && counting_.load() == wanted_) {
            p.done = cells_done_.load();
            p.total = cells_total_.load();
        }
        return p;
    }

    // The newest request's result, once, when it has ended; nullopt before, after, or with none wanted.
    std::optional<Result> take() {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (!done_ || done_->serial != wanted_) return std::nullopt;
        std::optional<Result> out = std::move(done_);
        done_.reset();
        wanted_ = 0;
        return out;
    }

private:
    struct Job {
        uint64_t serial = 0;
        Request request;
    };

    bool wanted(uint64_t serial) const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return serial == wanted_;
    }

    void loop() {  // the thread: runs each waiting job
        for (;;) {
            std::optional<Job> job;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [this] { return stop_ || waiting_.has_value(); });
                if (stop_) return;
                job = std::move(waiting_);
                waiting_.reset();
            }
            run(*job);
        }
    }

    void run(const Job& job) {  // one job, its result published if still wanted
        counting_.store(0);
        cells_done_.store(0);
        cells_total_.store(0);
        counting_.store(job.serial);
        RunReporter reporter;
        reporter.progress = [this, serial = job.serial](int64_t done, int64_t total) {
            cells_total_.store(total);
            cells_done_.store(done);
            return wanted(serial);
        };
        reporter.wanted = [this, serial = job.serial] { return wanted(serial); };
        Result out = work_(job.request, reporter);
        out.serial = job.serial;
        const std::lock_guard<std::mutex> lock(mutex_);
        if (job.serial == wanted_) done_ = std::move(out);
    }

    const Work work_;
    const WorkMode mode_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<Job> waiting_;
    std::optional<Result> done_;
    uint64_t next_serial_ = 1;
    uint64_t wanted_ = 0;  // the request whose result is wanted (0: none)
    bool stop_ = false;
    std::chrono::steady_clock::time_point requested_;
    std::atomic<uint64_t> counting_{0};  // the job whose cells the counts below are (the running or last one)
    std::atomic<int64_t> cells_done_{0}, cells_total_{0};
    std::thread thread_;  // own_thread: started by the first request
};

}  // namespace attnlab::gui
