// TrainingWorker: drives a TrainingRun and hands the app copies of what it publishes (progress,
// weight snapshots, the step-0 model). In WorkMode::own_thread the run goes on a thread of its own,
// started by start(); in WorkMode::between_frames (the web page, which has no threads) it does
// nothing until the app calls pump(budget) once a frame. Pause, resume, stop and the getters are
// the same in both modes. The worker never touches ImGui, GL or the Session: the app polls it.
#pragma once

#include "result.h"
#include "train_progress.h"
#include "training_run.h"
#include "work_mode.h"

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace attnlab::gui {

class TrainingWorker {
public:
    explicit TrainingWorker(WorkMode mode = WorkMode::own_thread) : mode_(mode) {}
    ~TrainingWorker();  // stops and joins
    TrainingWorker(const TrainingWorker&) = delete;
    TrainingWorker& operator=(const TrainingWorker&) = delete;

    WorkMode mode() const { return mode_; }
    // Ends any current run, builds the trainer (bad settings are an error here, never an
    // exception) and starts the run: on its thread, or at the next pump(). The step-0 model is
    // available at once (initial()).
    Status start(const TrainJob& job);
    void pause();  // after the current step or evaluation
    void resume();
    void stop();          // asks the run to end and waits for it; the last snapshot stays
    bool active() const;  // a run is running or paused

    // Between frames: advances the run by whole units (a step, an evaluation chunk, a probe) until
    // `budget` is spent, at least one unit unless it is paused or done. Does nothing in own_thread mode.
    void pump(std::chrono::milliseconds budget);

    // Copies the progress into `out` when it changed since `out.version`; returns whether it did.
    bool poll(TrainProgress& out) const;
    TrainProgress progress() const;
    WeightSnapshot snapshot() const;               // the latest (serial 0: none)
    std::shared_ptr<const Model> initial() const;  // the run's model at step 0 (nullptr: no run)
    std::vector<TextPair> examples() const;        // the task's example pairs
    // The run's latest snapshot as a whole model (vocabularies, training record), for saving.
    std::shared_ptr<const Model> latest_model() const;

private:
    void run_on_thread(TrainingRun& run);  // advance() until done, waiting while paused

    const WorkMode mode_;
    TrainBoard board_;
    std::shared_ptr<const Model> initial_;  // these two under board_.mutex
    std::vector<TextPair> examples_;
    std::thread thread_;                  // own_thread: the thread that owns the run
    std::unique_ptr<TrainingRun> pumped_;  // between_frames: the run pump() advances
};

}  // namespace attnlab::gui
