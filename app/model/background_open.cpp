// The work behind BackgroundOpen: Session::from_file, on its own thread or in the next pump().
#include "background_open.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

// The new session's first trace version: past any the current session can reach while the worker runs
// (it counts one per computed step), so that a version never names two outputs once the new one is in.
constexpr uint64_t kVersionGap = uint64_t{1} << 32;

}  // namespace

BackgroundOpen::~BackgroundOpen() {
    if (worker_.joinable()) worker_.join();
}

bool BackgroundOpen::start(const std::string& path, const Session& current) {
    if (running()) return false;
    if (worker_.joinable()) worker_.join();  // a finished worker nobody took from yet
    result_.reset();
    finished_.store(false);
    progress_.done.store(0);
    progress_.total.store(0);
    path_ = path;
    started_ = std::chrono::steady_clock::now();
    started_open_ = true;
    OpenRequest request{path, current.src_text(), current.tgt_text(), current.typed_ids_text(),
                        current.stepper().next_version() + kVersionGap};
    if (mode_ == WorkMode::between_frames)
        pending_ = std::move(request);
    else
        worker_ = std::thread([this, r = std::move(request)] { open_now(r); });
    return true;
}

void BackgroundOpen::open_now(const OpenRequest& r) {
    const ListenToProgress listening(progress_);
    result_.emplace(Session::from_file(r.path, r.src, r.tgt, r.first_version, r.ids));
    finished_.store(true);
}

void BackgroundOpen::pump(std::chrono::milliseconds) {
    if (!pending_) return;
    const OpenRequest request = std::move(*pending_);
    pending_.reset();
    open_now(request);
}

double BackgroundOpen::seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::optional<BackgroundOpen::TraceProgress> BackgroundOpen::trace_progress() const {
    const size_t total = progress_.total.load();
    if (total == 0) return std::nullopt;
    return TraceProgress{std::min(progress_.done.load(), total), total};
}

std::optional<Result<Session>> BackgroundOpen::take() {
    if (!started_open_ || !finished_.load()) return std::nullopt;
    if (worker_.joinable()) worker_.join();
    started_open_ = false;
    std::optional<Result<Session>> out = std::move(result_);
    result_.reset();
    return out;
}

}  // namespace attnlab::gui
