// Starting a run, driving it (a thread looping on advance(), or pump() a frame at a time), and the
// app's side of the board: pause, resume, stop, and copies of the progress and snapshots.
#include "training_worker.h"

#include "analysis/head_detectors.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

int auto_eval_every(int total) { return std::max(10, (total + 24) / 25); }

int auto_probe_every(int total) {
    return std::max(1, (total + TrainJob::kAutoProbePoints - 1) / TrainJob::kAutoProbePoints);
}

// A task without pairs (induction) shows its kind of sequence in the views: a few random tokens, then the same again,
// as the source text (which a decoder-only session reads as its one sequence).
std::vector<TextPair> repeated_example(const Trainer& trainer) {
    const Model& m = trainer.model();
    if (trainer.settings().task != "induction" || !m.tgt_vocab) return {};
    const InductionTask task = make_induction_task(trainer.settings().induction_tokens, trainer.settings().induction_length);
    TextPair pair;
    for (int id : repeated_random_tokens(task.vocab_size, task.min_length, trainer.settings().seed, task.excluded))
        pair.src.push_back(m.tgt_vocab->token(id));
    return {pair};
}

// The task's new model, or the opened model on its file's batches (`counts`: what the file held).
Result<std::unique_ptr<Trainer>> make_trainer(const TrainJob& job, DataCounts& counts) {
    if (!job.opened) return Trainer::create(job.settings);
    auto data = read_training_data(*job.opened->model, job.opened->data);
    if (!data) return data.error();
    counts = data->counts;
    return Trainer::create_on(*job.opened->model, std::move(data->batches), job.settings);
}

}  // namespace

TrainingWorker::~TrainingWorker() { stop(); }

Status TrainingWorker::start(const TrainJob& job) {
    stop();
    DataCounts counts;
    auto trainer = make_trainer(job, counts);
    {
        std::lock_guard lock(board_.mutex);
        TrainProgress& p = board_.progress;
        const uint64_t run_id = p.run + 1, version = p.version + 1;
        p = TrainProgress{};
        p.version = version;
        p.run = run_id;
        p.job = job;
        p.total = job.settings.steps;
        p.data = counts;
        initial_.reset();  // nothing of an earlier run stays once a new one is asked for
        examples_.clear();
        board_.snapshot = {};
        if (!trainer) {
            p.state = TrainState::failed;
            p.error = trainer.error().message;
            return trainer.error();
        }
        p.job.eval_every = job.eval_every > 0 ? job.eval_every : auto_eval_every(job.settings.steps);
        p.state = TrainState::running;
        initial_ = std::make_shared<const Model>((*trainer)->model());
        examples_ = (*trainer)->has_heldout() ? (*trainer)->task().examples() : repeated_example(**trainer);
        board_.snapshot = {0, 1, std::make_shared<const Weights>(initial_->weights)};
        std::vector<ParamGroupId> groups;
        for (const ParamGroup& g : (*trainer)->param_groups()) groups.push_back(g.id);
        p.probes = ProbeRecord(std::move(groups), pass_attention_sites(initial_->config), initial_->config.n_heads,
                               job.probe_every > 0 ? job.probe_every : auto_probe_every(job.settings.steps));
        p.probe_example = (*trainer)->probe_example();
        p.snapshot_serial = 1;
        board_.pause_requested = board_.stop_requested = false;
    }
    auto run = std::make_unique<TrainingRun>(std::move(*trainer), board_);
    if (mode_ == WorkMode::between_frames)
        pumped_ = std::move(run);
    else
        thread_ = std::thread([this, r = std::move(run)] { run_on_thread(*r); });
    return ok_status();
}

void TrainingWorker::run_on_thread(TrainingRun& run) {
    for (RunStep s = run.advance(); s != RunStep::done; s = run.advance()) {
        if (s != RunStep::paused) continue;
        std::unique_lock lock(board_.mutex);
        board_.wake.wait(lock, [&] { return !board_.pause_requested || board_.stop_requested; });
    }
}

void TrainingWorker::pump(std::chrono::milliseconds budget) {
    if (!pumped_) return;
    const auto deadline = std::chrono::steady_clock::now() + budget;
    RunStep s = pumped_->advance();
    while (s == RunStep::worked && std::chrono::steady_clock::now() < deadline) s = pumped_->advance();
    if (s == RunStep::done) pumped_.reset();
}

void TrainingWorker::pause() {
    std::lock_guard lock(board_.mutex);
    board_.pause_requested = true;
}

void TrainingWorker::resume() {
    {
        std::lock_guard lock(board_.mutex);
        board_.pause_requested = false;
    }
    board_.wake.notify_all();
}

void TrainingWorker::stop() {
    {
        std::lock_guard lock(board_.mutex);
        board_.stop_requested = true;
    }
    board_.wake.notify_all();
    if (thread_.joinable()) thread_.join();
    if (pumped_) {
        // As the thread would: on to the next look at the stop (at most the step-0 probe and an evaluation
        // chunk away), which publishes the last snapshot and the stopped state.
        while (pumped_->advance() != RunStep::done) {
        }
        pumped_.reset();
    }
}

bool TrainingWorker::active() const {
    std::lock_guard lock(board_.mutex);
    return board_.progress.state == TrainState::running || board_.progress.state == TrainState::paused;
}

bool TrainingWorker::poll(TrainProgress& out) const {
    std::lock_guard lock(board_.mutex);
    if (out.version == board_.progress.version) return false;
    out = board_.progress;
    return true;
}

TrainProgress TrainingWorker::progress() const {
    std::lock_guard lock(board_.mutex);
    return board_.progress;
}

WeightSnapshot TrainingWorker::snapshot() const {
    std::lock_guard lock(board_.mutex);
    return board_.snapshot;
}

std::shared_ptr<const Model> TrainingWorker::initial() const {
    std::lock_guard lock(board_.mutex);
    return initial_;
}

std::vector<TextPair> TrainingWorker::examples() const {
    std::lock_guard lock(board_.mutex);
    return examples_;
}

std::shared_ptr<const Model> TrainingWorker::latest_model() const {
    std::lock_guard lock(board_.mutex);
    if (!initial_) return nullptr;
    auto model = std::make_shared<Model>(*initial_);
    model->weights = *board_.snapshot.weights;
    if (model->training) model->training->steps = board_.snapshot.step;
    return model;
}

}  // namespace attnlab::gui
