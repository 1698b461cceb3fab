// Training: the app's side of a training run. It owns the worker thread, keeps the latest
// progress the worker published, and hands weights to the session: the step-0 model when a
// run starts, each new snapshot as it is published, and the step-0 weights while "compare with
// step 0" is on. GL- and ImGui-free, so it is tested headless.
#pragma once

#include "session.h"
#include "training_worker.h"
#include "view_state.h"

#include <string>
#include <vector>

namespace attnlab::gui {

class Training {
public:
    explicit Training(WorkMode mode = WorkMode::own_thread) : worker_(mode) {}
    // Starts a run and has the session adopt its step-0 model with the task's first example.
    Status start(Session& session, const TrainJob& job);
    void pause() { worker_.pause(); }
    void resume() { worker_.resume(); }
    void stop() { worker_.stop(); }
    // Once per frame, between frames (WorkMode::between_frames): advances the run for about `budget`.
    void pump(std::chrono::milliseconds budget) { worker_.pump(budget); }

    // Once per frame: picks up the worker's progress and, while the session shows this run,
    // swaps in its newest snapshot (or step 0 when comparing). Returns whether anything changed.
    bool sync(Session& session);

    const TrainProgress& progress() const { return progress_; }
    bool active() const { return progress_.state == TrainState::running || progress_.state == TrainState::paused; }
    bool has_run() const { return progress_.run > 0 && worker_.initial() != nullptr; }
    // The session shows this run's model (not one the user opened since).
    bool linked(const Session& session) const {
        return linked_serial_ != 0 && session.model_serial() == linked_serial_;
    }
    // Shows this run's model again after the user opened another one.
    bool show_in_session(Session& session);

    // Shows the step-0 weights while `pinned` (a checkbox) or `held` (a button held down), and
    // the newest snapshot again after; applied to the session at once.
    void set_compare(Session& session, bool pinned, bool held);
    bool compare() const { return compare_; }
    bool compare_pinned() const { return compare_pinned_; }
    int shown_step() const { return shown_step_; }  // the step whose weights the session shows (-1: none)

    // Writes the latest snapshot (with the task's vocabularies and training record), atomically.
    Status save(const std::string& path) const;
    std::vector<TextPair> examples() const { return worker_.examples(); }
    std::shared_ptr<const Model> initial() const { return worker_.initial(); }
    WeightSnapshot snapshot() const { return worker_.snapshot(); }

private:
    std::string model_name(int step) const;

    TrainingWorker worker_;
    TrainProgress progress_;
    uint64_t linked_serial_ = 0;  // session.model_serial() after adopting this run; 0: none
    uint64_t shown_serial_ = 0;   // the snapshot the session shows; 0: step 0 for comparison
    int shown_step_ = -1;
    bool compare_ = false, compare_pinned_ = false;
};

// The run the Training view's form describes.
TrainJob train_job(const TrainForm& form);

// The presets a task's new model can take, its own first: the induction task's besides the paper's two.
std::vector<const char*> train_presets(const std::string& task);

// The run the form describes on the model the views show (its live config and weights, switches and edits
// included) and the form's data file; a Hugging Face model (opened from its folder, or a run of one) is saved as a
// folder. Errors: no output head, no file chosen. The file is read when the run starts.
Result<TrainJob> opened_model_job(const TrainForm& form, const Session& session, const Training& training);

// "i like red apples": a pair's words as the word tokenizer's text.
std::string join_words(const std::vector<std::string>& words);

}  // namespace attnlab::gui
