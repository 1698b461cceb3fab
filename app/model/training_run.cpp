// The run as a sequence of units: the step-0 probe, the step-0 evaluation (in chunks), then training
// steps with an evaluation every eval_every steps and a weight snapshot at most every snapshot_seconds,
// then the final evaluation. A pause is honoured before a step; a stop before a step and after each
// evaluation chunk (so the step-0 probe and one chunk always run, as they did on the thread alone). A run without a
// held-out split (the induction task's) has no evaluations: it ends with its last step.
#include "training_run.h"

#include "analysis/head_detectors.h"

#include <algorithm>
#include <cassert>
#include <exception>
#include <stdexcept>

namespace attnlab::gui {

namespace {

using Clock = std::chrono::steady_clock;

// The random tokens the head detectors read at every probe point: the same sequence all through the run.
constexpr uint64_t kHeadProbeSeed = 7;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

TrainingRun::TrainingRun(std::unique_ptr<Trainer> trainer, TrainBoard& board)
    : trainer_(std::move(trainer)), board_(board), started_(Clock::now()), last_snapshot_(started_) {
    {
        std::lock_guard lock(board_.mutex);
        job_ = board_.progress.job;
    }
    if (trainer_->has_heldout()) heldout_size_ = trainer_->task().heldout().size();
    live_examples_ = job_.eval_examples ? std::min(job_.eval_examples, heldout_size_) : heldout_size_;
}

RunStep TrainingRun::advance() {
    try {
        return advance_unguarded();
    } catch (const std::exception& e) {  // out of memory, say: report it, never take the app down
        fail(std::string("training stopped: ") + e.what());
        return RunStep::done;
    }
}

RunStep TrainingRun::advance_unguarded() {
    switch (phase_) {
        case Phase::first_probe:
            record_probe({});  // step 0: entropies of the untrained model, no gradient yet
            if (trainer_->has_heldout())
                start_eval(false);  // where the untrained model starts
            else
                phase_ = Phase::training;
            break;
        case Phase::evaluating: eval_chunk(); break;
        case Phase::training:
            if (stop_requested()) {
                finish(true);
                break;
            }
            if (hold_if_paused()) return RunStep::paused;
            train_one_step();
            break;
        case Phase::done: break;
    }
    return phase_ == Phase::done ? RunStep::done : RunStep::worked;
}

bool TrainingRun::hold_if_paused() {
    std::unique_lock lock(board_.mutex);
    if (board_.pause_requested) {
        if (paused_) return true;
        lock.unlock();
        publish_snapshot();  // the views show exactly the paused weights
        lock.lock();
        board_.progress.state = TrainState::paused;
        ++board_.progress.version;
        paused_at_ = Clock::now();
        paused_ = true;
        return true;
    }
    if (paused_) {
        paused_seconds_ += seconds_since(paused_at_);
        board_.progress.state = TrainState::running;
        ++board_.progress.version;
        paused_ = false;
    }
    return false;
}

void TrainingRun::train_one_step() {
    const Clock::time_point t0 = Clock::now();
    const StepReport report = trainer_->train_step();
    const double s = seconds_since(t0);
    step_seconds_ = step_seconds_ > 0.0 ? 0.9 * step_seconds_ + 0.1 * s : s;
    const bool eval_now = trainer_->has_heldout() && report.step % job_.eval_every == 0 && !trainer_->finished();
    {
        std::lock_guard lock(board_.mutex);
        TrainProgress& p = board_.progress;
        p.step = report.step;
        p.last = report;
        p.train_loss.add(static_cast<float>(report.loss));
        p.steps_per_second = step_seconds_ > 0.0 ? 1.0 / step_seconds_ : 0.0;
        const int left = job_.settings.steps - report.step;
        const double evals_left = trainer_->has_heldout() ? static_cast<double>(left / job_.eval_every) : 0.0;
        // The final evaluation runs on every pair and decodes to <eos>: a guess from the live one.
        const double final_eval = job_.final_full_eval ? 2.0 * eval_seconds_ * static_cast<double>(heldout_size_) /
                                                             static_cast<double>(live_examples_)
                                                       : eval_seconds_;
        p.eta_seconds = left * step_seconds_ + evals_left * eval_seconds_ + final_eval;
        p.elapsed_seconds = elapsed_seconds();
        ++p.version;
    }
    if (trainer_->finished() || probe_due(report.step)) record_probe(report.group_grad_norms);
    if (trainer_->finished() || eval_now || seconds_since(last_snapshot_) >= job_.snapshot_seconds) {
        publish_snapshot();
        last_snapshot_ = Clock::now();
    }
    if (eval_now)
        start_eval(false);
    else if (trainer_->finished() && trainer_->has_heldout())
        start_eval(true);
    else if (trainer_->finished())
        finish(false);
}

void TrainingRun::start_eval(bool final_eval) {
    eval_final_ = final_eval;
    eval_full_ = final_eval && job_.final_full_eval;
    eval_spent_ = 0.0;
    // Core's evaluation a chunk at a time, so that a stop request is seen between chunks; a live
    // evaluation caps each decoded sequence, since a model still learning may never say <eos>.
    const size_t max_examples = eval_full_ ? 0 : live_examples_;
    eval_.emplace(trainer_->task(),
                  EvalOptions{.max_examples = max_examples,
                              .label_smoothing = trainer_->settings().label_smoothing,
                              .max_new_tokens = eval_full_ ? 0 : heldout_decode_cap(trainer_->task(), max_examples),
                              .keep_hypotheses = false});
    phase_ = Phase::evaluating;
    std::lock_guard lock(board_.mutex);
    board_.progress.evaluating = true;
    ++board_.progress.version;
}

void TrainingRun::eval_chunk() {
    if (!eval_->done()) {
        const Clock::time_point t0 = Clock::now();
        [[maybe_unused]] const Status st = eval_->run_chunk(trainer_->model(), job_.eval_chunk);
        assert(st && "the trainer's model is made for its task");
        eval_spent_ += seconds_since(t0);
    }
    if (stop_requested()) {
        finish(true);
        return;
    }
    if (!eval_->done()) return;
    if (!eval_full_) eval_seconds_ = eval_seconds_ > 0.0 ? 0.7 * eval_seconds_ + 0.3 * eval_spent_ : eval_spent_;
    {
        std::lock_guard lock(board_.mutex);
        board_.progress.evaluating = false;
        board_.progress.heldout.push_back({trainer_->steps_done(), eval_->scores(), eval_full_});
        ++board_.progress.version;
    }
    eval_.reset();
    if (eval_final_)
        finish(false);
    else
        phase_ = Phase::training;
}

void TrainingRun::finish(bool stopped) {
    // A stop leaves the views on the weights it stopped at (a finished trainer published its last step).
    if (stopped && !trainer_->finished()) publish_snapshot();
    eval_.reset();  // a stopped evaluation records no scores
    phase_ = Phase::done;
    if (paused_) paused_seconds_ += seconds_since(paused_at_);  // stopped while paused
    paused_ = false;
    std::lock_guard lock(board_.mutex);
    TrainProgress& p = board_.progress;
    p.state = stopped ? TrainState::stopped : TrainState::finished;
    p.evaluating = false;
    p.eta_seconds = 0.0;
    p.elapsed_seconds = elapsed_seconds();
    ++p.version;
}

void TrainingRun::fail(const std::string& why) {
    eval_.reset();
    phase_ = Phase::done;
    std::lock_guard lock(board_.mutex);
    board_.progress.state = TrainState::failed;
    board_.progress.evaluating = false;
    board_.progress.error = why;
    ++board_.progress.version;
}

void TrainingRun::publish_snapshot() {
    auto weights = std::make_shared<const Weights>(trainer_->model().weights);  // copies pointers, not numbers
    std::lock_guard lock(board_.mutex);
    board_.snapshot = {trainer_->steps_done(), board_.snapshot.serial + 1, std::move(weights)};
    board_.progress.snapshot_step = board_.snapshot.step;
    board_.progress.snapshot_serial = board_.snapshot.serial;
    ++board_.progress.version;
}

void TrainingRun::record_probe(const std::vector<float>& grad_norms) {
    // Outside the lock: the entropies, and for the induction task the copy losses and the head scores.
    const std::vector<SiteEntropy> entropies = trainer_->attention_entropies();
    const std::optional<CopyLosses> copies = trainer_->copy_losses();
    std::optional<HeadDetectorScores> heads;
    if (copies) {
        const Model& m = trainer_->model();
        auto scored = detect_heads(m.config, m.weights,
                                   HeadDetectorOptions{trainer_->settings().induction_length, kHeadProbeSeed, 1});
        if (!scored) throw std::runtime_error(scored.error().message);  // the trainer made the model for the task
        heads = std::move(*scored);
    }
    std::lock_guard lock(board_.mutex);
    board_.progress.probes.add(trainer_->steps_done(), grad_norms, entropies);
    if (copies) {
        InductionRecord& r = board_.progress.induction;
        if (r.n_layers() == 0)
            r = InductionRecord(static_cast<int>(heads->layers.size()), trainer_->model().config.n_heads);
        r.add(trainer_->steps_done(), *copies, *heads);
    }
    ++board_.progress.version;
}

bool TrainingRun::probe_due(int step) const {
    std::lock_guard lock(board_.mutex);
    return board_.progress.probes.due(step);
}

bool TrainingRun::stop_requested() const {
    std::lock_guard lock(board_.mutex);
    return board_.stop_requested;
}

double TrainingRun::elapsed_seconds() const { return seconds_since(started_) - paused_seconds_; }

}  // namespace attnlab::gui
