// The work behind BackgroundModel: core's open_model, on its own thread or in the next pump().
#include "background_model.h"

#include "hf/open_model.h"

namespace attnlab::gui {

BackgroundModel::~BackgroundModel() {
    if (worker_.joinable()) worker_.join();
}

bool BackgroundModel::start(const std::string& path) {
    if (running()) return false;
    if (worker_.joinable()) worker_.join();  // a finished worker nobody took from yet
    result_.reset();
    finished_.store(false);
    path_ = path;
    started_ = true;
    if (mode_ == WorkMode::between_frames)
        pending_ = true;
    else
        worker_ = std::thread([this] { read_now(); });
    return true;
}

void BackgroundModel::read_now() {
    auto loaded = open_model(path_);
    if (loaded)
        result_.emplace(std::move(loaded->model));
    else
        result_.emplace(loaded.error());
    finished_.store(true);
}

void BackgroundModel::pump() {
    if (!pending_) return;
    pending_ = false;
    read_now();
}

std::optional<Result<Model>> BackgroundModel::take() {
    if (!started_ || !finished_.load()) return std::nullopt;
    if (worker_.joinable()) worker_.join();
    started_ = false;
    std::optional<Result<Model>> out = std::move(result_);
    result_.reset();
    return out;
}

}  // namespace attnlab::gui
