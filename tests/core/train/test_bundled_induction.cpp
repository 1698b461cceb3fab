// The bundled induction model and its training history (assets/models/README.md, "Induction"): an induction head
// in layer 1 and a previous-token head in layer 0, a history whose last checkpoint is that model and whose
// second-copy loss falls from ln 40 to near 0 while the first copy's stays, both files under 2 MB.
#include "analysis/head_detectors.h"
#include "io/model_file.h"
#include "train/training_history_file.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>

using namespace attnlab;

namespace {

const std::string kModels = std::string(ATTNLAB_SOURCE_DIR) + "/assets/models/";

}  // namespace

TEST_CASE("the bundled induction model has an induction head in layer 1 and a previous-token head in layer 0",
          "[bundled][induction]") {
    CHECK(std::filesystem::file_size(kModels + "induction.safetensors") <= 2u * 1024 * 1024);
    auto model = io::read_model(kModels + "induction.safetensors");
    REQUIRE(model);
    HeadDetectorOptions options;
    options.length = 12;
    options.bos = 1;
    auto scores = detect_heads(model->config, model->weights, options);
    REQUIRE(scores);
    REQUIRE(scores->layers.size() == 2);
    float induction = 0.0f, previous = 0.0f;
    for (const HeadScores& h : scores->layers[1].heads) induction = std::max(induction, h.induction);
    for (const HeadScores& h : scores->layers[0].heads) previous = std::max(previous, h.previous_token);
    CHECK(induction >= 0.5f);
    CHECK(previous >= 0.5f);
}

TEST_CASE("the bundled induction history scrubs from the untrained model to the bundled one", "[bundled][induction]") {
    CHECK(std::filesystem::file_size(kModels + "induction.history.safetensors") <= 2u * 1024 * 1024);
    auto history = read_training_history(kModels + "induction.history.safetensors");
    REQUIRE(history);
    REQUIRE(history->checkpoints.size() >= 10);
    const HistoryCheckpoint& first = history->checkpoints.front();
    const HistoryCheckpoint& last = history->checkpoints.back();
    CHECK(first.step == 0);
    CHECK(first.copies.second > 3.0);
    CHECK(last.copies.second < 0.5);
    CHECK(last.copies.first > 3.0);  // the first copy cannot be predicted: it stays near ln 40
    auto model = io::read_model(kModels + "induction.safetensors");
    REQUIRE(model);
    CHECK(model->config == history->model.config);
    for (const auto& [name, t] : model->weights.all()) {
        const Tensor& h = last.weights.at(name);
        CHECK(std::memcmp(t->data.data(), h.data.data(), h.data.size() * sizeof(float)) == 0);
    }
}
