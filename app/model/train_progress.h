// What a training run is asked to do and what it reports: the job, the published progress (loss
// curve, held-out scores, steps/s, gradient norms by layer and attention entropies by head) and the
// immutable weight snapshots the UI picks up. Plain records, shared by TrainingRun (which writes
// them) and TrainingWorker (which hands copies to the app).
#pragma once

#include "induction_record.h"
#include "model.h"
#include "train/tasks.h"
#include "train/training_data.h"
#include "train/trainer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// Training the model the views show on a file of the user's, in place of a task's new model.
struct OpenedModelRun {
    std::shared_ptr<const Model> model;    // its live config and weights when the run was asked for
    std::string name;                      // as the views' title showed it
    DataFileSpec data;
    std::optional<std::string> hf_folder;  // the Hugging Face folder it was opened from: it is saved as one
};

// What to train and how the worker reports on it.
struct TrainJob {
    TrainSettings settings;  // settings.task and preset unused with `opened`
    std::optional<OpenedModelRun> opened;
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
    // The induction task's copy losses and head scores at the same points as `probes` (empty for other tasks).
    InductionRecord induction;
    int snapshot_step = 0;         // the step of the latest snapshot
    uint64_t snapshot_serial = 0;  // bumps with every snapshot
    DataCounts data;               // what an opened model's file held
    std::string error;             // why the run failed (state == failed)
};

// A weight snapshot: immutable tensors shared with the trainer at `step`.
struct WeightSnapshot {
    int step = 0;
    uint64_t serial = 0;
    std::shared_ptr<const Weights> weights;
};

}  // namespace attnlab::gui
