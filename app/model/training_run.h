// TrainingRun: one training run as a resumable piece of work. Each advance() does one unit (the step-0
// probe, one chunk of a held-out evaluation, or one training step with its probe and snapshot) and
// publishes what it did on the TrainBoard, so the same run goes on a thread of its own (advance() in a
// loop) or between frames (a few advance() calls a frame, within a time budget) and gives the same bits.
// The run never touches ImGui, GL or the Session.
#pragma once

#include "train/evaluate.h"
#include "train_progress.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

namespace attnlab::gui {

// What a run and whoever drives it share, under `mutex`: the run writes progress and snapshot;
// the app asks for a pause or a stop, and `wake` tells a paused thread that it did.
struct TrainBoard {
    mutable std::mutex mutex;
    std::condition_variable wake;
    TrainProgress progress;
    WeightSnapshot snapshot;
    bool pause_requested = false, stop_requested = false;
};

// What one advance() left the run at.
enum class RunStep {
    worked,  // did a unit; there is more
    paused,  // a pause is asked for: did nothing, call again once it is lifted (or a stop asked for)
    done,    // finished, stopped or failed: the board says which; advance() does nothing more
};

class TrainingRun {
public:
    // The board's progress already holds the job (eval_every resolved) and the empty probe record.
    TrainingRun(std::unique_ptr<Trainer> trainer, TrainBoard& board);
    TrainingRun(const TrainingRun&) = delete;
    TrainingRun& operator=(const TrainingRun&) = delete;

    // One unit of work, or none when paused, stopped or done. Never throws: a failure (out of
    // memory, say) ends the run as failed.
    RunStep advance();

private:
    using Clock = std::chrono::steady_clock;
    enum class Phase { first_probe, evaluating, training, done };

    RunStep advance_unguarded();
    bool hold_if_paused();  // true while a pause is asked for (publishing the paused state once)
    void train_one_step();
    void start_eval(bool final_eval);
    void eval_chunk();
    void finish(bool stopped);
    void fail(const std::string& why);
    void publish_snapshot();
    // Adds a point to the probe record: `grad_norms` (empty at step 0) and the current entropies.
    void record_probe(const std::vector<float>& grad_norms);
    bool probe_due(int step) const;
    bool stop_requested() const;
    double elapsed_seconds() const;  // since the run began, less the time paused

    std::unique_ptr<Trainer> trainer_;
    TrainBoard& board_;
    TrainJob job_;
    size_t heldout_size_ = 0, live_examples_ = 0;  // the held-out split, and the pairs of a live evaluation
    Phase phase_ = Phase::first_probe;

    std::optional<HeldoutEval> eval_;  // the evaluation under way (Phase::evaluating)
    bool eval_full_ = false, eval_final_ = false;
    double eval_spent_ = 0.0;  // seconds in its chunks so far

    Clock::time_point started_, last_snapshot_, paused_at_;
    bool paused_ = false;
    double paused_seconds_ = 0.0, step_seconds_ = 0.0, eval_seconds_ = 0.0;  // recent averages per step / evaluation
};

}  // namespace attnlab::gui
