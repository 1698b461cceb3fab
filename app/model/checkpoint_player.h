// CheckpointPlayer: a training history (train/training_history.h) scrubbed in the app. When the session shows a
// model opened from <stem>.safetensors with <stem>.history.safetensors beside it, the player reads that history;
// moving to a checkpoint swaps its weights into the session (Session::set_weights), so every view follows; Play
// walks the checkpoints one per kSecondsPerCheckpoint of the clock it is given. No ImGui: the Training view draws
// it (panels/checkpoint_slider.h) and a test drives it with a clock of its own.
#pragma once

#include "induction_record.h"
#include "session.h"
#include "train/training_history.h"

#include <optional>
#include <string>

namespace attnlab::gui {

// "<stem>.history.safetensors" for a model file "<stem>.safetensors"; empty for any other name (a folder).
std::string history_path_beside(const std::string& model_path);

class CheckpointPlayer {
public:
    static constexpr double kSecondsPerCheckpoint = 0.8;  // a class reads the step and the curves' marker

    // Once per frame: when the session shows another model than last time (Session::model_serial), drops the
    // history and, for a model opened from a file with a history beside it, reads that (error() says why it could
    // not: one line). Returns whether anything changed.
    bool follow(const Session& session);

    bool has_history() const { return history_.has_value(); }
    const TrainingHistory& history() const { return *history_; }  // has_history() only
    const std::string& history_path() const { return path_; }
    // The checkpoints' copy losses and head scores, point i for checkpoint i, as the training view plots a run's.
    const InductionRecord& record() const { return record_; }
    const std::string& error() const { return error_; }

    // The checkpoint the slider is on: the last until a move (the model file is the run's end). -1: no history.
    int selected() const { return selected_; }
    // Whether the session shows the selected checkpoint's weights (after a move), rather than the model as opened.
    bool shown() const { return shown_; }

    // Swaps checkpoint `index` (clamped) into the session, keeping its name, inputs and edits; false with the
    // session's error if it refused the weights.
    bool show(Session& session, int index);

    // Play from the selected checkpoint (from the first, when on the last), one checkpoint a tick from `now`.
    void play(double now);
    void pause() { playing_ = false; }
    bool playing() const { return playing_; }
    // Shows the checkpoint due by `now`, if one is (at most one per call); stops after the last. True if it moved.
    bool advance(Session& session, double now);

private:
    std::optional<TrainingHistory> history_;
    InductionRecord record_;
    std::string path_, error_;
    uint64_t serial_ = 0;  // the session's model_serial() the history belongs to; 0: none seen yet
    int selected_ = -1;
    bool shown_ = false, playing_ = false;
    double next_tick_ = 0.0;
};

}  // namespace attnlab::gui
