// PatchingRun: activation patching's grids (patching_tool.h) off the window's thread. A request (the model, the clean
// and corrupted inputs, the metric, the piece) gives both runs' metric, the exact grid and its gradient estimate
// (attribution patching) with the Pearson correlation of the two. A new request replaces an older one: one still
// waiting is dropped, and one running ends after its current stage (the runs, the exact grid, the estimate: a grid
// cannot stop midway) with its result dropped. cancel() does the same with no new request.
// In WorkMode::own_thread the requests run on a thread of its own; in WorkMode::between_frames (the web page, no
// threads) pump() runs the newest request whole on the window's thread: the same work, the same numbers.
// The window polls: progress() while it runs, take() once it has ended. Nothing here touches ImGui or the Session.
#pragma once

#include "patching_tool.h"
#include "work_mode.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace attnlab::gui {

struct PatchingRequest {
    ModelConfig config;
    Weights weights;  // shared, immutable tensors: a copy copies pointers
    ForwardInputs clean, corrupt;
    AttributionMetric metric;
    PatchPiece piece = PatchPiece::residual;
};

struct PatchingResult {
    uint64_t serial = 0;  // the request it answers (request()'s number)
    std::string error;    // the runs could not be made (one line); then no grids
    double clean = 0.0, corrupt = 0.0;  // the metric on each run
    Result<PatchGrid> exact = Error{"not run"};
    Result<PatchGrid> gradient = Error{"not run"};  // refused for some metrics (one line)
    double correlation = std::numeric_limits<double>::quiet_NaN();  // of the two grids; NaN without both
};

class PatchingRun {
public:
    explicit PatchingRun(WorkMode mode = WorkMode::own_thread) : mode_(mode) {}
    PatchingRun(const PatchingRun&) = delete;
    PatchingRun& operator=(const PatchingRun&) = delete;
    ~PatchingRun();  // drops what waits, lets the running request end its stage, joins

    WorkMode mode() const { return mode_; }
    // Queues `request` in place of any other; returns its number (1, 2, ...).
    uint64_t request(PatchingRequest request);
    void cancel();  // no result is wanted any more: the waiting request goes, the running one's result too
    // Between frames: runs the waiting request whole (the budget cannot cut it short). Nothing in own_thread mode.
    void pump(std::chrono::milliseconds budget);

    // Whether the newest request's result is still to come.
    bool busy() const;
    struct Progress {
        int64_t done = 0, total = 0;  // the exact grid's cells (total 0: not started on them yet)
        double seconds = 0.0;         // since the request
    };
    Progress progress() const;  // the counts stay at the end until the result is taken
    // The newest request's result, once, when it has ended; nullopt before, after, or with none wanted.
    std::optional<PatchingResult> take();

private:
    struct Job {
        uint64_t serial = 0;
        PatchingRequest request;
    };
    void loop();                // the thread: runs each waiting job
    void run(const Job& job);   // one job, published if still wanted
    bool wanted(uint64_t serial) const;

    const WorkMode mode_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<Job> waiting_;
    std::optional<PatchingResult> done_;
    uint64_t next_serial_ = 1;
    uint64_t wanted_ = 0;  // the request whose result is wanted (0: none)
    bool stop_ = false;
    std::chrono::steady_clock::time_point requested_;
    std::atomic<uint64_t> counting_{0};  // the job whose cells the counts below are (the running or last one)
    std::atomic<int64_t> cells_done_{0}, cells_total_{0};
    std::thread thread_;  // own_thread: started by the first request
};

}  // namespace attnlab::gui
