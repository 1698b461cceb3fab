// The run's state names, and the loss curve that halves its resolution to stay bounded.
#include "train_progress.h"

namespace attnlab::gui {

const char* to_string(TrainState s) {
    switch (s) {
        case TrainState::idle: return "idle";
        case TrainState::running: return "running";
        case TrainState::paused: return "paused";
        case TrainState::finished: return "finished";
        case TrainState::stopped: return "stopped";
        case TrainState::failed: return "failed";
    }
    return "";
}

void LossCurve::add(float loss) {
    pending_sum_ += static_cast<double>(loss);
    if (++pending_n_ < stride_) return;
    means_.push_back(static_cast<float>(pending_sum_ / pending_n_));
    pending_sum_ = 0.0;
    pending_n_ = 0;
    if (means_.size() < kMaxPoints) return;
    // Merge pairs: each point now covers twice as many steps.
    for (size_t i = 0; i < means_.size() / 2; ++i) means_[i] = 0.5f * (means_[2 * i] + means_[2 * i + 1]);
    means_.resize(means_.size() / 2);
    stride_ *= 2;
}

}  // namespace attnlab::gui
