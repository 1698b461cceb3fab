// Long work says how far it has come, between its steps, to a listener on its own thread. A whole forward
// pass of GPT-2 small over 1024 tokens takes seconds; the app listens on its window's thread and redraws
// the window with a progress bar meanwhile, so that it never freezes. Work on a thread nobody listens on
// (a worker opening a model, the CLI) reports to no one.
#pragma once

#include <cstddef>
#include <string>

namespace attnlab {

// Steps [first, end) are the work of one call; step `at` has just been computed.
struct WorkProgress {
    size_t first = 0, at = 0, end = 0;
    const std::string* step_path = nullptr;  // step at's user-visible name
    double fraction() const {                // of the call's steps, computed so far
        return end > first ? static_cast<double>(at + 1 - first) / static_cast<double>(end - first) : 1.0;
    }
};

class ProgressListener {
public:
    virtual ~ProgressListener() = default;
    virtual void on_progress(const WorkProgress& progress) = 0;
};

// While it lives, `listener` hears the reports made on the thread that made it; then the one before again.
class ListenToProgress {
public:
    explicit ListenToProgress(ProgressListener& listener);
    ~ListenToProgress();
    ListenToProgress(const ListenToProgress&) = delete;
    ListenToProgress& operator=(const ListenToProgress&) = delete;

private:
    ProgressListener* previous_;
};

// To this thread's listener, if there is one.
void report_progress(const WorkProgress& progress);

}  // namespace attnlab
