// KnockoutRun: attention knockout's grid (knockout_tool.h) off the window's thread. A request (the model, the
// inputs, the metric, the attention, layer and head) gives the metric and every edge's change. A new request
// replaces an older one: one still waiting is dropped, one running ends its grid (a grid cannot stop midway) and
// its result is dropped. cancel() does the same with no new request.
// In WorkMode::own_thread the requests run on a thread of the run's own; in WorkMode::between_frames (the web
// page, no threads) pump() runs the newest request whole on the window's thread: the same work, the same numbers.
// The window polls: progress() while it runs, take() once it has ended. Nothing here touches ImGui or the Session.
#pragma once

#include "knockout_tool.h"
#include "work_mode.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace attnlab::gui {

struct KnockoutRequest {
    ModelConfig config;
    Weights weights;  // shared, immutable tensors: a copy copies pointers
    ForwardInputs inputs;
    AttributionMetric metric;
    KnockoutSite site;
};

struct KnockoutRunResult {
    uint64_t serial = 0;  // the request it answers (request()'s number)
    Result<KnockoutGrid> grid = Error{"not run"};
};

class KnockoutRun {
public:
    explicit KnockoutRun(WorkMode mode = WorkMode::own_thread) : mode_(mode) {}
    KnockoutRun(const KnockoutRun&) = delete;
    KnockoutRun& operator=(const KnockoutRun&) = delete;
    ~KnockoutRun();  // drops what waits, lets the running grid end, joins

    // Queues `request` in place of any other; returns its number (1, 2, ...).
    uint64_t request(KnockoutRequest request);
    void cancel();
    // Between frames: runs the waiting request whole. Nothing in own_thread mode.
    void pump();

    bool busy() const;  // the newest request's result is still to come
    struct Progress {
        int64_t done = 0, total = 0;  // edges (total 0: not started on them yet)
        double seconds = 0.0;         // since the request
    };
    Progress progress() const;
    // The newest request's result, once, when it has ended; nullopt before, after, or with none wanted.
    std::optional<KnockoutRunResult> take();

private:
    struct Job {
        uint64_t serial = 0;
        KnockoutRequest request;
    };
    void loop();
    void run(const Job& job);

    const WorkMode mode_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<Job> waiting_;
    std::optional<KnockoutRunResult> done_;
    uint64_t next_serial_ = 1;
    uint64_t wanted_ = 0;  // the request whose result is wanted (0: none)
    bool stop_ = false;
    std::chrono::steady_clock::time_point requested_;
    std::atomic<uint64_t> counting_{0};  // the job whose edges the counts below are
    std::atomic<int64_t> edges_done_{0}, edges_total_{0};
    std::thread thread_;  // own_thread: started by the first request
};

}  // namespace attnlab::gui
