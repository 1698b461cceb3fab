// The history beside the session's model, its checkpoints swapped into the session one at a time.
#include "checkpoint_player.h"

#include "train/training_history_file.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace attnlab::gui {

namespace {

InductionRecord record_of(const TrainingHistory& history) {
    InductionRecord record(history.layers, history.heads);
    const size_t H = static_cast<size_t>(history.heads);
    for (const HistoryCheckpoint& c : history.checkpoints) {
        HeadDetectorScores scores;
        for (size_t l = 0; l < static_cast<size_t>(history.layers); ++l)
            scores.layers.push_back({{},
                                     {c.heads.begin() + static_cast<std::ptrdiff_t>(l * H),
                                      c.heads.begin() + static_cast<std::ptrdiff_t>((l + 1) * H)}});
        record.add(c.step, c.copies, scores);
    }
    return record;
}

}  // namespace

std::string history_path_beside(const std::string& model_path) {
    const std::string ext = ".safetensors";
    if (model_path.size() <= ext.size() || model_path.compare(model_path.size() - ext.size(), ext.size(), ext) != 0 ||
        is_training_history_file(model_path))
        return "";
    return model_path.substr(0, model_path.size() - ext.size()) + ".history" + ext;
}

bool CheckpointPlayer::follow(const Session& session) {
    if (session.model_serial() == serial_) return false;
    const bool had = history_.has_value() || !error_.empty();
    serial_ = session.model_serial();
    history_.reset();
    record_ = InductionRecord{};
    path_.clear(), error_.clear();
    selected_ = -1;
    shown_ = playing_ = false;
    const std::string path =
        session.origin() == ModelOrigin::file ? history_path_beside(session.model_name()) : std::string();
    std::error_code ec;
    if (path.empty() || !std::filesystem::is_regular_file(path, ec)) return had;
    path_ = path;
    auto read = read_training_history(path);
    if (!read) {
        error_ = read.error().message;
        return true;
    }
    if (read->checkpoints.empty()) {
        error_ = path + ": the history has no checkpoints";
        return true;
    }
    if (!(read->model.config == session.model().config)) {
        error_ = path + ": the history's model is not the one opened (its config differs)";
        return true;
    }
    history_ = std::move(*read);
    record_ = record_of(*history_);
    selected_ = static_cast<int>(history_->checkpoints.size()) - 1;
    return true;
}

bool CheckpointPlayer::show(Session& session, int index) {
    if (!history_) return false;
    index = std::clamp(index, 0, static_cast<int>(history_->checkpoints.size()) - 1);
    const std::string name = session.model_name();  // kept: the file the history belongs to
    if (!session.set_weights(history_->checkpoints[static_cast<size_t>(index)].weights, name)) {
        playing_ = false;
        return false;
    }
    selected_ = index;
    shown_ = true;
    return true;
}

void CheckpointPlayer::play(double now) {
    if (!history_) return;
    if (selected_ >= static_cast<int>(history_->checkpoints.size()) - 1) selected_ = -1;  // from the start again
    playing_ = true;
    next_tick_ = now;  // the first checkpoint shows at once
}

bool CheckpointPlayer::advance(Session& session, double now) {
    if (!playing_ || !history_ || now < next_tick_) return false;
    if (!show(session, selected_ + 1)) return false;
    next_tick_ = now + kSecondsPerCheckpoint;
    if (selected_ >= static_cast<int>(history_->checkpoints.size()) - 1) playing_ = false;
    return true;
}

}  // namespace attnlab::gui
