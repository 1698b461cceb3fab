// PatchingRun (patching_run.h): requests replacing each other, run on a thread of the run's own or in pump().
#include "patching_run.h"

namespace attnlab::gui {

PatchingRun::~PatchingRun() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
        wanted_ = 0;
        waiting_.reset();
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

uint64_t PatchingRun::request(PatchingRequest request) {
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

void PatchingRun::cancel() {
    const std::lock_guard<std::mutex> lock(mutex_);
    wanted_ = 0;
    waiting_.reset();
    done_.reset();
}

void PatchingRun::pump(std::chrono::milliseconds) {
    if (mode_ != WorkMode::between_frames) return;
    std::optional<Job> job;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        job = std::move(waiting_);
        waiting_.reset();
    }
    if (job) run(*job);
}

bool PatchingRun::busy() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return wanted_ != 0 && !(done_ && done_->serial == wanted_);
}

PatchingRun::Progress PatchingRun::progress() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    Progress p;
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - requested_).count();
    if (wanted_ != 0 && counting_.load() == wanted_) {
        p.done = cells_done_.load();
        p.total = cells_total_.load();
    }
    return p;
}

std::optional<PatchingResult> PatchingRun::take() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!done_ || done_->serial != wanted_) return std::nullopt;
    std::optional<PatchingResult> out = std::move(done_);
    done_.reset();
    wanted_ = 0;
    return out;
}

bool PatchingRun::wanted(uint64_t serial) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return serial == wanted_;
}

void PatchingRun::loop() {
    for (;;) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [this] { return stop_ || waiting_.has_value(); });
            if (stop_) return;
            job = std::move(*waiting_);
            waiting_.reset();
        }
        run(job);
    }
}

void PatchingRun::run(const Job& job) {
    counting_.store(0);
    cells_done_.store(0);
    cells_total_.store(0);
    counting_.store(job.serial);
    const PatchingRequest& r = job.request;
    PatchingResult out;
    out.serial = job.serial;
    auto tool = PatchingTool::create(r.config, r.weights, r.clean, r.corrupt, r.metric);
    if (!tool) {
        out.error = tool.error().message;
    } else if (wanted(job.serial)) {
        out.clean = tool->clean_metric();
        out.corrupt = tool->corrupt_metric();
        out.exact = tool->grid(r.piece, PatchMethod::exact, [this](int64_t done, int64_t total) {
            cells_total_.store(total);
            cells_done_.store(done);
        });
        if (wanted(job.serial)) out.gradient = tool->grid(r.piece, PatchMethod::gradient);
        if (out.exact && out.gradient) out.correlation = grid_correlation(*out.exact, *out.gradient);
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    if (job.serial == wanted_) done_ = std::move(out);
}

}  // namespace attnlab::gui
