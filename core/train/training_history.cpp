#include "train/training_history.h"

#include "train/trainer.h"

#include <cassert>

namespace attnlab {

Model TrainingHistory::at(size_t i) const {
    assert(i < checkpoints.size());
    Model m = model;
    m.weights = checkpoints[i].weights;
    if (m.training) m.training->steps = checkpoints[i].step;
    return m;
}

TrainingHistory start_history(const Model& model, int detect_length) {
    TrainingHistory history;
    history.model = model;
    history.model.weights = Weights{};
    history.detect_length = detect_length;
    history.heads = model.config.n_heads;
    return history;
}

Status record_checkpoint(TrainingHistory& history, int step, const Weights& weights, std::optional<double> loss,
                         CopyLosses copies) {
    if (!history.checkpoints.empty() && step <= history.checkpoints.back().step)
        return Error{"checkpoint step " + std::to_string(step) + " is not after step " +
                     std::to_string(history.checkpoints.back().step)};
    HeadDetectorOptions options;
    options.length = history.detect_length;
    options.bos = history.model.config.sos_id;
    auto scores = detect_heads(history.model.config, weights, options);
    if (!scores) return scores.error();
    HistoryCheckpoint checkpoint{step, loss, copies, {}, weights};
    for (const auto& layer : scores->layers)
        checkpoint.heads.insert(checkpoint.heads.end(), layer.heads.begin(), layer.heads.end());
    history.layers = static_cast<int>(scores->layers.size());
    history.checkpoints.push_back(std::move(checkpoint));
    return ok_status();
}

Status record_checkpoint(TrainingHistory& history, const Trainer& trainer, std::optional<double> batch_loss) {
    const auto copies = trainer.copy_losses();
    assert(copies && "an induction-task trainer");
    return record_checkpoint(history, trainer.steps_done(), trainer.model().weights, batch_loss, *copies);
}

}  // namespace attnlab
