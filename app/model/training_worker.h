// TrainingWorker: runs a Trainer on its own thread and publishes, under a mutex, its progress
// (loss curve, held-out scores, steps/s, gradient norms by layer and attention entropies by head) and
// immutable weight snapshots for the UI to pick up.
// The thread never touches ImGui, GL or the Session: the app polls it once per frame.
#pragma once

#include "model.h"
#include "result.h"
#include "train/tasks.h"
#include "train/trainer.h"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace attnlab::gui {

// What to train and how the worker reports on it.
struct TrainJob {
    TrainSettings settings;
    int eval_every = 0;              // steps between held-out evaluations; 0: about 25 over the run
    size_t eval_examples = 200;      // held-out pairs per live evaluation (0: all); decoding is cut
                                     // at twice the longest reference (heldout_decode_cap)
    size_t eval_chunk = 10;          // pairs decoded between two looks at stop()
    bool final_full_eval = true;     // score the finished model on the whole held-out split
    double snapshot_seconds = 0.25;  // at most this long between weight snapshots while running
    int probe_every = 0;             // steps between records of the gradient norms and head entropies
                                     // (ProbeRecord); 0: about kAutoProbePoints over the run
    static constexpr int kAutoProbePoints = 200;
};

enum class TrainState { idle, running, paused, finished, stopped, failed };
const char* to_string(TrainState s);  // "idle", "running", ...

// The training loss as the mean of `stride` consecutive steps per point. The stride doubles
// (pairs of points merge) whenever the curve would pass kMaxPoints, so memory stays bounded.
class LossCurve {
public:
    static constexpr size_t kMaxPoints = 1024;
    void add(float loss);
    size_t size() const { return means_.size(); }
    int stride() const { return stride_; }
    float mean(size_t i) const { return means_[i]; }
    // The step at the middle of point i (steps count from 1).
    float step_at(size_t i) const { return (static_cast<float>(i) + 0.5f) * static_cast<float>(stride_) + 0.5f; }

private:
    std::vector<float> means_;
    int stride_ = 1;
    double pending_sum_ = 0.0;
    int pending_n_ = 0;
};

struct HeldoutPoint {
    int step = 0;
    EvalScores scores;
    bool full = false;  // the whole held-out split (the final evaluation), not the live sample
};

struct TrainProgress {
    uint64_t version = 0;  // bumps with every publication
    uint64_t run = 0;      // which start() this belongs to (0: none yet)
    TrainState state = TrainState::idle;
    bool evaluating = false;  // a held-out evaluation is under way
    TrainJob job;
    int step = 0, total = 0;
    double steps_per_second = 0.0;  // training steps only, recent average
    double eta_seconds = 0.0;       // the remaining steps and evaluations at the recent pace
    double elapsed_seconds = 0.0;
    StepReport last;  // the latest step's batch loss, accuracy, learning rate, |g|
    LossCurve train_loss;
    std::vector<HeldoutPoint> heldout;
    // Each layer's gradient norm and each head's attention entropy on probe_example, every
    // probes.every() steps from step 0 (entropies only there), and at the last step.
    ProbeRecord probes;
    TextPair probe_example;
    int snapshot_step = 0;         // the step of the latest snapshot
    uint64_t snapshot_serial = 0;  // bumps with every snapshot
    std::string error;             // why the run failed (state == failed)
};

// A weight snapshot: immutable tensors shared with the trainer at `step`.
struct WeightSnapshot {
    int step = 0;
    uint64_t serial = 0;
    std::shared_ptr<const Weights> weights;
};

class TrainingWorker {
public:
    TrainingWorker() = default;
    ~TrainingWorker();  // stops and joins
    TrainingWorker(const TrainingWorker&) = delete;
    TrainingWorker& operator=(const TrainingWorker&) = delete;

    // Ends any current run, builds the trainer (bad settings are an error here, never an
    // exception) and starts the thread. The step-0 model is available at once (initial()).
    Status start(const TrainJob& job);
    void pause();  // after the current step or evaluation
    void resume();
    void stop();          // asks the thread to end and joins it; the last snapshot stays
    bool active() const;  // a thread is running or paused

    // Copies the progress into `out` when it changed since `out.version`; returns whether it did.
    bool poll(TrainProgress& out) const;
    TrainProgress progress() const;
    WeightSnapshot snapshot() const;               // the latest (serial 0: none)
    std::shared_ptr<const Model> initial() const;  // the run's model at step 0 (nullptr: no run)
    std::vector<TextPair> examples() const;        // the task's example pairs
    // The run's latest snapshot as a whole model (vocabularies, training record), for saving.
    std::shared_ptr<const Model> latest_model() const;

private:
    void run(std::unique_ptr<Trainer> trainer);
    // Returns false when a stop cut it short (then it records no scores).
    bool evaluate(const Trainer& trainer, size_t max_examples, size_t chunk, bool full);
    void publish_snapshot(const Trainer& trainer);
    // Adds a point to the probe record: `grad_norms` (empty at step 0) and the current entropies.
    void record_probe(const Trainer& trainer, const std::vector<float>& grad_norms);
    void join();

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    TrainProgress progress_;
    WeightSnapshot snapshot_;
    std::shared_ptr<const Model> initial_;
    std::vector<TextPair> examples_;
    bool pause_requested_ = false, stop_requested_ = false;
    std::thread thread_;
};

}  // namespace attnlab::gui
