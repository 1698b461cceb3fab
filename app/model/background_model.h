// Reading a model file (or a Hugging Face folder) off the window's thread, for a tool that needs a second
// model beside the session's (the compare tool's run B). GPT-2 small takes seconds to read; the window keeps
// drawing meanwhile. In WorkMode::between_frames (the web page, no threads) the read runs whole in the next
// pump(), on the window's thread: the same work, the same result.
#pragma once

#include "model.h"
#include "result.h"
#include "work_mode.h"

#include <atomic>
#include <optional>
#include <string>
#include <thread>

namespace attnlab::gui {

class BackgroundModel {
public:
    explicit BackgroundModel(WorkMode mode = WorkMode::own_thread) : mode_(mode) {}
    BackgroundModel(const BackgroundModel&) = delete;
    BackgroundModel& operator=(const BackgroundModel&) = delete;
    ~BackgroundModel();  // waits for a running read: the worker owns nothing the window frees

    // Starts reading `path`; false while another read runs (a read cannot be cut short).
    bool start(const std::string& path);
    // Between frames: runs a started read to its end. Does nothing in own_thread mode or when no read waits.
    void pump();
    bool running() const { return started_ && !finished_.load(); }
    const std::string& path() const { return path_; }  // the file being (or last) read

    // The finished read's model, or its one-line error; nullopt while it runs or when none was started.
    std::optional<Result<Model>> take();

private:
    void read_now();  // the work, on the worker thread or in pump()

    const WorkMode mode_;
    std::thread worker_;
    bool pending_ = false;  // between_frames: a read the next pump() runs
    bool started_ = false;  // a read was started and its result not yet taken
    std::atomic<bool> finished_{false};
    std::optional<Result<Model>> result_;  // written by the worker before finished_, read after it
    std::string path_;
};

}  // namespace attnlab::gui
