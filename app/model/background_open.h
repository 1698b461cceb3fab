// Opening a model file on a worker thread. Reading GPT-2 small and running its trace over a long
// sentence take seconds; the window keeps drawing meanwhile and says what it is waiting for. The
// finished session (or why there is none) is taken on the window's thread, which swaps it in.
// In WorkMode::between_frames (the web page, no threads; the file is in memory already) the open
// runs whole in the next pump() instead, on the window's thread: the same work, the same result.
#pragma once

#include "progress.h"
#include "session.h"
#include "work_mode.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

namespace attnlab::gui {

class BackgroundOpen {
public:
    explicit BackgroundOpen(WorkMode mode = WorkMode::own_thread) : mode_(mode) {}
    BackgroundOpen(const BackgroundOpen&) = delete;
    BackgroundOpen& operator=(const BackgroundOpen&) = delete;
    ~BackgroundOpen();  // waits for a running open: the worker owns nothing the window frees

    // Starts opening `path` for `current`: the new session shows current's sentences where it can read them,
    // and its trace versions start far past current's, which may keep changing meanwhile. False while another
    // open is running.
    bool start(const std::string& path, const Session& current);
    // Between frames: runs a started open to its end (the budget cannot cut one short). Does nothing in
    // own_thread mode or when no open waits.
    void pump(std::chrono::milliseconds budget);
    bool running() const { return started_open_ && !finished_.load(); }
    const std::string& path() const { return path_; }  // the file being (or last) opened
    double seconds() const;                            // since start
    // How far the first trace has come: steps computed and of how many, once the worker has started
    // computing (reading the weights comes first); nullopt before.
    struct TraceProgress {
        size_t done = 0, total = 0;
    };
    std::optional<TraceProgress> trace_progress() const;

    // The finished open's session, or its error; nullopt while it runs or when none was started.
    std::optional<Result<Session>> take();

private:
    // What an open needs of the session it replaces, copied when it starts.
    struct OpenRequest {
        std::string path, src, tgt, ids;
        uint64_t first_version = 0;
    };
    void open_now(const OpenRequest& request);  // the work, on the worker thread or in pump()

    // The worker's progress listener: what the stepper reports on the worker, for the window's thread to read.
    struct SharedProgress : ProgressListener {
        std::atomic<size_t> done{0}, total{0};
        void on_progress(const WorkProgress& p) override {
            total.store(p.end);
            done.store(p.at + 1);
        }
    };

    const WorkMode mode_;
    std::thread worker_;                  // own_thread: the open under way
    std::optional<OpenRequest> pending_;  // between_frames: the open the next pump() runs
    bool started_open_ = false;           // an open was started and its result not yet taken
    SharedProgress progress_;
    std::atomic<bool> finished_{false};
    std::optional<Result<Session>> result_;  // written by the worker before finished_, read after it
    std::string path_;
    std::chrono::steady_clock::time_point started_;
};

}  // namespace attnlab::gui
