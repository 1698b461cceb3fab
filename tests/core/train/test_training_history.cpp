// A training history: checkpoints recorded from a trainer, saved as one .safetensors file and read back bit for bit,
// each checkpoint opening as a model; a file that is not one gets a one-line error naming it.
#include "train/trainer.h"
#include "train/training_history_file.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace attnlab;

namespace {

// Two checkpoints of a two-layer induction model (L = 4): at step 0 (no loss yet) and step 5.
TrainingHistory two_checkpoints() {
    const Vocab vocab = induction_vocab(10);
    auto config = induction_config("induction", vocab.size(), 4);
    REQUIRE(config);
    const Model model{*config, init_weights(*config, 1), std::nullopt, vocab, TokenizerKind::word,
                      TrainingRecord{"induction", 1, 0}, nullptr};
    TrainingHistory history = start_history(model, 4);
    REQUIRE(record_checkpoint(history, 0, model.weights, std::nullopt, CopyLosses{2.6, 2.5}).ok());
    REQUIRE(record_checkpoint(history, 5, init_weights(*config, 2), 2.25, CopyLosses{2.4, 1.5}).ok());
    return history;
}

bool same_bits(const Tensor& a, const Tensor& b) {
    return a.shape == b.shape && std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0;
}

std::string error_of(io::SafetensorsFile file) {
    auto h = history_from_safetensors(std::move(file), "h.safetensors");
    REQUIRE(!h);
    INFO(h.error().message);
    CHECK(h.error().message.rfind("h.safetensors", 0) == 0);
    CHECK(h.error().message.find('\n') == std::string::npos);
    return h.error().message;
}

}  // namespace

TEST_CASE("a recorded checkpoint holds the step, losses, every head's scores and a weights snapshot", "[history]") {
    TrainingHistory h = two_checkpoints();
    CHECK(h.layers == 2);
    CHECK(h.heads == 2);
    REQUIRE(h.checkpoints.size() == 2);
    CHECK(h.checkpoints[1].heads.size() == 4);  // layers · H
    CHECK(!h.checkpoints[0].loss);
    CHECK(*h.checkpoints[1].loss == 2.25);
    CHECK(h.checkpoints[0].heads[0].previous_token > 0.0f);
    // The snapshots differ, and each opens as a model with its step.
    CHECK(!same_bits(h.checkpoints[0].weights.at("lm_head.weight"), h.checkpoints[1].weights.at("lm_head.weight")));
    const Model second = h.at(1);
    CHECK(check_model(second).ok());
    CHECK(second.training->steps == 5);
    const Weights w = h.checkpoints[1].weights;
    CHECK(!record_checkpoint(h, 5, w, 1.0, {}).ok());  // not after step 5
    CHECK(h.checkpoints.size() == 2);
}

TEST_CASE("a training history survives the file bit for bit", "[history]") {
    const TrainingHistory h = two_checkpoints();
    const io::SafetensorsFile file = history_to_safetensors(h);
    CHECK(file.tensors.at("history.induction").shape == Shape{2, 2, 2});
    CHECK(std::isnan(file.tensors.at("history.loss").data[0]));
    CHECK(file.tensors.count("checkpoint.1.lm_head.weight") == 1);
    auto back = history_from_safetensors(file, "h.safetensors");
    REQUIRE(back);
    CHECK(back->detect_length == 4);
    CHECK(back->layers == 2);
    CHECK(back->heads == 2);
    CHECK(back->model.config == h.model.config);
    CHECK(back->model.tgt_vocab->size() == 14);
    REQUIRE(back->checkpoints.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        const HistoryCheckpoint& a = h.checkpoints[i];
        const HistoryCheckpoint& b = back->checkpoints[i];
        CHECK(a.step == b.step);
        CHECK(a.loss.has_value() == b.loss.has_value());
        CHECK(b.copies.second == Approx(a.copies.second));
        for (size_t k = 0; k < a.heads.size(); ++k) {
            CHECK(a.heads[k].induction == b.heads[k].induction);
            CHECK(a.heads[k].duplicate_token == b.heads[k].duplicate_token);
        }
        REQUIRE(a.weights.all().size() == b.weights.all().size());
        for (const auto& [name, t] : a.weights.all()) CHECK(same_bits(*t, b.weights.at(name)));
    }
    CHECK(io::serialize_safetensors(history_to_safetensors(*back)) == io::serialize_safetensors(file));
}

TEST_CASE("a file that is not a training history gets one line naming what is wrong", "[history]") {
    const io::SafetensorsFile good = history_to_safetensors(two_checkpoints());
    io::SafetensorsFile f = good;
    f.metadata.erase("history");
    CHECK(error_of(f).find("training history") != std::string::npos);
    f = good;
    f.tensors.at("history.step").data[1] = 0.0f;
    CHECK(error_of(f).find("history.step[1]") != std::string::npos);
    f = good;
    f.tensors.at("history.induction").data[3] = 1.5f;
    CHECK(error_of(f).find("outside [0, 1]") != std::string::npos);
    f = good;
    f.tensors.at("history.previous_token") = Tensor(Shape{2, 3, 2});
    CHECK(error_of(f).find("history.previous_token") != std::string::npos);
    f = good;
    f.tensors.erase("history.second_copy");
    CHECK(error_of(f).find("history.second_copy") != std::string::npos);
    f = good;
    f.tensors["checkpoint.2.lm_head.weight"] = Tensor(Shape{1});
    CHECK(error_of(f).find("unexpected tensor 'checkpoint.2.lm_head.weight'") != std::string::npos);
    f = good;
    f.tensors.erase("checkpoint.1.lm_head.weight");
    CHECK(error_of(f).find("checkpoint 1") != std::string::npos);
    f = good;
    f.tensors.at("history.loss").data[1] = -1.0f;
    CHECK(error_of(f).find("history.loss[1]") != std::string::npos);
}

TEST_CASE("checkpoints recorded from an induction trainer", "[history][train]") {
    TrainSettings s;
    s.task = "induction";
    s.steps = 2;
    s.batch_size = 4;
    s.threads = 1;
    s.induction_length = 6;
    s.induction_tokens = 10;
    s.optimizer.schedule = LrSchedule::constant;
    s.optimizer.lr = 3e-3f;
    auto trainer = Trainer::create(s);
    REQUIRE(trainer);
    Trainer& t = **trainer;
    TrainingHistory h = start_history(t.model(), s.induction_length);
    REQUIRE(record_checkpoint(h, t, std::nullopt).ok());
    const double loss = t.train_step().loss;
    REQUIRE(record_checkpoint(h, t, loss).ok());
    REQUIRE(h.checkpoints.size() == 2);
    CHECK(h.checkpoints[1].step == 1);
    CHECK(*h.checkpoints[1].loss == loss);
    CHECK(h.checkpoints[1].copies.second == Approx(t.copy_losses()->second));
    int changed = 0;  // the step moved the weights; the first snapshot kept the old ones
    for (const auto& [name, before] : h.checkpoints[0].weights.all())
        changed += !same_bits(*before, h.checkpoints[1].weights.at(name));
    CHECK(changed > 0);
}
