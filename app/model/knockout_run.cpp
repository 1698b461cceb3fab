// KnockoutRun (knockout_run.h): requests replacing each other, run on a thread of the run's own or in pump().
#include "knockout_run.h"

namespace attnlab::gui {

KnockoutRun::~KnockoutRun() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
        wanted_ = 0;
        waiting_.reset();
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

uint64_t KnockoutRun::request(KnockoutRequest request) {
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

void KnockoutRun::cancel() {
    const std::lock_guard<std::mutex> lock(mutex_);
    wanted_ = 0;
    waiting_.reset();
    done_.reset();
}

void KnockoutRun::pump() {
    if (mode_ != WorkMode::between_frames) return;
    std::optional<Job> job;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        job = std::move(waiting_);
        waiting_.reset();
    }
    if (job) run(*job);
}

bool KnockoutRun::busy() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return wanted_ != 0 && !(done_ && done_->serial == wanted_);
}

KnockoutRun::Progress KnockoutRun::progress() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    Progress p;
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - requested_).count();
    if (wanted_ != 0 && counting_.load() == wanted_) {
        p.done = edges_done_.load();
        p.total = edges_total_.load();
    }
    return p;
}

std::optional<KnockoutRunResult> KnockoutRun::take() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!done_ || done_->serial != wanted_) return std::nullopt;
    std::optional<KnockoutRunResult> out = std::move(done_);
    done_.reset();
    wanted_ = 0;
    return out;
}

void KnockoutRun::loop() {
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

void KnockoutRun::run(const Job& job) {
    edges_done_.store(0);
    edges_total_.store(0);
    counting_.store(job.serial);
    const KnockoutRequest& r = job.request;
    KnockoutRunResult out;
    out.serial = job.serial;
    auto tool = KnockoutTool::create(r.config, r.weights, r.inputs, r.metric);
    if (!tool)
        out.grid = tool.error();
    else
        out.grid = tool->grid(r.site, [this](int64_t done, int64_t total) {
            edges_total_.store(total);
            edges_done_.store(done);
        });
    const std::lock_guard<std::mutex> lock(mutex_);
    if (job.serial == wanted_) done_ = std::move(out);
}

}  // namespace attnlab::gui
