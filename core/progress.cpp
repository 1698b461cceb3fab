#include "progress.h"

namespace attnlab {

namespace {

thread_local ProgressListener* listener = nullptr;

}  // namespace

ListenToProgress::ListenToProgress(ProgressListener& l) : previous_(listener) { listener = &l; }

ListenToProgress::~ListenToProgress() { listener = previous_; }

void report_progress(const WorkProgress& progress) {
    if (listener) listener->on_progress(progress);
}

}  // namespace attnlab
