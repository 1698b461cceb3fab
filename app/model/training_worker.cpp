// The training thread: train_step() in a loop, a held-out evaluation every eval_every steps,
// a weight snapshot at most every snapshot_seconds; pause, resume and stop between steps.
#include "training_worker.h"

#include "train/evaluate.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <exception>

namespace attnlab::gui {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

int auto_eval_every(int total) { return std::max(10, (total + 24) / 25); }

int auto_probe_every(int total) {
    return std::max(1, (total + TrainJob::kAutoProbePoints - 1) / TrainJob::kAutoProbePoints);
}

}  // namespace

const char* to_string(TrainState s) {
    switch (s) {
        case TrainState::idle: return "idle";
        case TrainState::running: return "running";
        case TrainState::paused: return "paused";
        case TrainState::finished: return "finished";
        case TrainState::stopped: return "stopped";
        case TrainState::failed: return "failed";
    }
    return "";
}

void LossCurve::add(float loss) {
    pending_sum_ += static_cast<double>(loss);
    if (++pending_n_ < stride_) return;
    means_.push_back(static_cast<float>(pending_sum_ / pending_n_));
    pending_sum_ = 0.0;
    pending_n_ = 0;
    if (means_.size() < kMaxPoints) return;
    // Merge pairs: each point now covers twice as many steps.
    for (size_t i = 0; i < means_.size() / 2; ++i) means_[i] = 0.5f * (means_[2 * i] + means_[2 * i + 1]);
    means_.resize(means_.size() / 2);
    stride_ *= 2;
}

TrainingWorker::~TrainingWorker() { stop(); }

Status TrainingWorker::start(const TrainJob& job) {
    stop();
    auto trainer = Trainer::create(job.settings);
    std::lock_guard lock(mutex_);
    const uint64_t run_id = progress_.run + 1, version = progress_.version + 1;
    progress_ = TrainProgress{};
    progress_.version = version;
    progress_.run = run_id;
    progress_.job = job;
    progress_.total = job.settings.steps;
    initial_.reset();  // nothing of an earlier run stays once a new one is asked for
    examples_.clear();
    snapshot_ = {};
    if (!trainer) {
        progress_.state = TrainState::failed;
        progress_.error = trainer.error().message;
        return trainer.error();
    }
    progress_.job.eval_every = job.eval_every > 0 ? job.eval_every : auto_eval_every(job.settings.steps);
    progress_.state = TrainState::running;
    initial_ = std::make_shared<const Model>((*trainer)->model());
    examples_ = (*trainer)->task().examples();
    snapshot_ = {0, 1, std::make_shared<const Weights>(initial_->weights)};
    std::vector<ParamGroupId> groups;
    for (const ParamGroup& g : (*trainer)->param_groups()) groups.push_back(g.id);
    progress_.probes = ProbeRecord(std::move(groups), pass_attention_sites(initial_->config), initial_->config.n_heads,
                                   job.probe_every > 0 ? job.probe_every : auto_probe_every(job.settings.steps));
    progress_.probe_example = (*trainer)->probe_example();
    progress_.snapshot_serial = 1;
    pause_requested_ = stop_requested_ = false;
    thread_ = std::thread([this, t = std::move(*trainer)]() mutable { run(std::move(t)); });
    return ok_status();
}

void TrainingWorker::pause() {
    std::lock_guard lock(mutex_);
    pause_requested_ = true;
}

void TrainingWorker::resume() {
    {
        std::lock_guard lock(mutex_);
        pause_requested_ = false;
    }
    wake_.notify_all();
}

void TrainingWorker::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_requested_ = true;
    }
    wake_.notify_all();
    join();
}

void TrainingWorker::join() {
    if (thread_.joinable()) thread_.join();
}

bool TrainingWorker::active() const {
    std::lock_guard lock(mutex_);
    return progress_.state == TrainState::running || progress_.state == TrainState::paused;
}

bool TrainingWorker::poll(TrainProgress& out) const {
    std::lock_guard lock(mutex_);
    if (out.version == progress_.version) return false;
    out = progress_;
    return true;
}

TrainProgress TrainingWorker::progress() const {
    std::lock_guard lock(mutex_);
    return progress_;
}

WeightSnapshot TrainingWorker::snapshot() const {
    std::lock_guard lock(mutex_);
    return snapshot_;
}

std::shared_ptr<const Model> TrainingWorker::initial() const {
    std::lock_guard lock(mutex_);
    return initial_;
}

std::vector<TextPair> TrainingWorker::examples() const {
    std::lock_guard lock(mutex_);
    return examples_;
}

std::shared_ptr<const Model> TrainingWorker::latest_model() const {
    std::lock_guard lock(mutex_);
    if (!initial_) return nullptr;
    auto model = std::make_shared<Model>(*initial_);
    model->weights = *snapshot_.weights;
    if (model->training) model->training->steps = snapshot_.step;
    return model;
}

void TrainingWorker::publish_snapshot(const Trainer& trainer) {
    auto weights = std::make_shared<const Weights>(trainer.model().weights);  // copies pointers, not numbers
    std::lock_guard lock(mutex_);
    snapshot_ = {trainer.steps_done(), snapshot_.serial + 1, std::move(weights)};
    progress_.snapshot_step = snapshot_.step;
    progress_.snapshot_serial = snapshot_.serial;
    ++progress_.version;
}

bool TrainingWorker::evaluate(const Trainer& trainer, size_t max_examples, size_t chunk, bool full) {
    {
        std::lock_guard lock(mutex_);
        progress_.evaluating = true;
        ++progress_.version;
    }
    // Core's evaluation a chunk at a time, so that a stop request is seen between chunks; a live
    // evaluation caps each decoded sequence, since a model still learning may never say <eos>.
    HeldoutEval eval(trainer.task(), {.max_examples = max_examples,
                                      .label_smoothing = trainer.settings().label_smoothing,
                                      .max_new_tokens = full ? 0 : heldout_decode_cap(trainer.task(), max_examples),
                                      .keep_hypotheses = false});
    bool stopped = false;
    while (!eval.done() && !stopped) {
        [[maybe_unused]] const Status st = eval.run_chunk(trainer.model(), chunk);
        assert(st && "the trainer's model is made for its task");
        std::lock_guard lock(mutex_);
        stopped = stop_requested_;
    }
    std::lock_guard lock(mutex_);
    progress_.evaluating = false;
    if (!stopped) progress_.heldout.push_back({trainer.steps_done(), eval.scores(), full});
    ++progress_.version;
    return !stopped;
}

void TrainingWorker::record_probe(const Trainer& trainer, const std::vector<float>& grad_norms) {
    const std::vector<SiteEntropy> entropies = trainer.attention_entropies();  // outside the lock
    std::lock_guard lock(mutex_);
    progress_.probes.add(trainer.steps_done(), grad_norms, entropies);
    ++progress_.version;
}

void TrainingWorker::run(std::unique_ptr<Trainer> trainer) {
    const Clock::time_point started = Clock::now();
    Clock::time_point last_snapshot = started;
    double paused_seconds = 0.0, step_seconds = 0.0, eval_seconds = 0.0;  // recent averages per step / evaluation
    TrainJob job;
    {
        std::lock_guard lock(mutex_);
        job = progress_.job;
    }
    const size_t heldout_size = trainer->task().heldout().size();
    const size_t live_examples = job.eval_examples ? std::min(job.eval_examples, heldout_size) : heldout_size;
    // Returns false when a stop cut the evaluation short.
    auto timed_eval = [&](bool full) {
        const Clock::time_point t0 = Clock::now();
        const bool done = evaluate(*trainer, full ? 0 : live_examples, job.eval_chunk, full);
        if (!full) {
            const double s = seconds_since(t0);
            eval_seconds = eval_seconds > 0.0 ? 0.7 * eval_seconds + 0.3 * s : s;
        }
        return done;
    };
    // Whether the record wants a point at `step` (only this thread changes it, under the lock).
    auto probe_due = [&](int step) {
        std::lock_guard lock(mutex_);
        return progress_.probes.due(step);
    };
    // Waits while paused; returns false when asked to stop.
    auto wait_if_paused = [&]() {
        std::unique_lock lock(mutex_);
        if (pause_requested_ && !stop_requested_) {
            lock.unlock();
            publish_snapshot(*trainer);  // the views show exactly the paused weights
            lock.lock();
            progress_.state = TrainState::paused;
            ++progress_.version;
            const Clock::time_point paused_at = Clock::now();
            wake_.wait(lock, [&] { return !pause_requested_ || stop_requested_; });
            paused_seconds += seconds_since(paused_at);
            progress_.state = TrainState::running;
            ++progress_.version;
        }
        return !stop_requested_;
    };
    try {
        record_probe(*trainer, {});         // step 0: entropies of the untrained model, no gradient yet
        bool stopped = !timed_eval(false);  // where the untrained model starts
        while (!stopped && !trainer->finished()) {
            if (!wait_if_paused()) {
                stopped = true;
                break;
            }
            const Clock::time_point t0 = Clock::now();
            const StepReport report = trainer->train_step();
            const double s = seconds_since(t0);
            step_seconds = step_seconds > 0.0 ? 0.9 * step_seconds + 0.1 * s : s;
            const bool eval_now = report.step % job.eval_every == 0 && !trainer->finished();
            {
                std::lock_guard lock(mutex_);
                progress_.step = report.step;
                progress_.last = report;
                progress_.train_loss.add(static_cast<float>(report.loss));
                progress_.steps_per_second = step_seconds > 0.0 ? 1.0 / step_seconds : 0.0;
                const int left = job.settings.steps - report.step;
                const double evals_left = static_cast<double>(left / job.eval_every);
                // The final evaluation runs on every pair and decodes to <eos>: a guess from the live one.
                const double final_eval = job.final_full_eval ? 2.0 * eval_seconds * static_cast<double>(heldout_size) /
                                                                    static_cast<double>(live_examples)
                                                              : eval_seconds;
                progress_.eta_seconds = left * step_seconds + evals_left * eval_seconds + final_eval;
                progress_.elapsed_seconds = seconds_since(started) - paused_seconds;
                ++progress_.version;
            }
            if (trainer->finished() || probe_due(report.step)) record_probe(*trainer, report.group_grad_norms);
            if (trainer->finished() || eval_now || seconds_since(last_snapshot) >= job.snapshot_seconds) {
                publish_snapshot(*trainer);
                last_snapshot = Clock::now();
            }
            if (eval_now && !timed_eval(false)) stopped = true;
        }
        if (stopped)
            publish_snapshot(*trainer);
        else
            stopped = !timed_eval(job.final_full_eval);
        std::lock_guard lock(mutex_);
        progress_.state = stopped ? TrainState::stopped : TrainState::finished;
        progress_.eta_seconds = 0.0;
        progress_.elapsed_seconds = seconds_since(started) - paused_seconds;
        ++progress_.version;
    } catch (const std::exception& e) {  // out of memory, say: report it, never take the app down
        std::lock_guard lock(mutex_);
        progress_.state = TrainState::failed;
        progress_.evaluating = false;
        progress_.error = std::string("training stopped: ") + e.what();
        ++progress_.version;
    }
}

}  // namespace attnlab::gui
