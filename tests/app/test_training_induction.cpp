// The training view's induction task: the run has no held-out split, so it skips the evaluations, and at each probe
// point records the loss on either copy and every self-attention head's three detector scores.
#include "launch_options.h"
#include "default_model.h"
#include "training.h"
#include "training_support.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;
using namespace attnlab::gui;
using test::wait_for;

namespace {

TrainJob induction_job(int steps) {
    TrainJob job = test::copy_job(steps);
    job.settings.task = "induction";
    job.settings.induction_length = 6;
    job.settings.induction_tokens = 10;
    job.probe_every = 2;
    return job;
}

}  // namespace

TEST_CASE("an induction run trains without evaluations and records copy losses and head scores",
          "[training][induction][needs_threads]") {
    TrainingWorker worker;
    REQUIRE(worker.start(induction_job(5)));
    const std::shared_ptr<const Model> initial = worker.initial();
    REQUIRE(initial);
    CHECK(initial->config.arch == Arch::decoder_only);
    REQUIRE(wait_for([&] { return !worker.active(); }));
    TrainProgress p;
    REQUIRE(worker.poll(p));
    INFO(p.error);
    REQUIRE(p.state == TrainState::finished);
    CHECK(p.step == 5);
    CHECK(p.heldout.empty());
    CHECK(p.snapshot_step == 5);

    const InductionRecord& r = p.induction;
    // Step 0, the due steps 2 and 4, and the last, 5: the probe record's points.
    REQUIRE(r.size() == 4);
    REQUIRE(r.size() == p.probes.size());
    for (size_t i = 0; i < r.size(); ++i) CHECK(r.step(i) == p.probes.step(i));
    CHECK(r.n_layers() == initial->config.n_decoder_layers);
    CHECK(r.n_heads() == initial->config.n_heads);
    for (size_t i = 0; i < r.size(); ++i) {
        CHECK(std::isfinite(r.first_copy_loss(i)));
        CHECK(r.first_copy_loss(i) > 0.0f);
        CHECK(r.second_copy_loss(i) > 0.0f);
        for (int l = 0; l < r.n_layers(); ++l)
            for (int h = 0; h < r.n_heads(); ++h)
                for (HeadScoreKind k :
                     {HeadScoreKind::induction, HeadScoreKind::previous_token, HeadScoreKind::duplicate_token}) {
                    CHECK(r.score(i, l, h, k) >= 0.0f);
                    CHECK(r.score(i, l, h, k) <= 1.0f);
                }
    }
    // Training moves the scores: a head's score is not the same at the last point as at step 0.
    bool moved = false;
    for (int l = 0; l < r.n_layers(); ++l)
        for (int h = 0; h < r.n_heads(); ++h) moved |= r.score(0, l, h, HeadScoreKind::previous_token) != r.score(3, l, h, HeadScoreKind::previous_token);
    CHECK(moved);

    // The views get a repeated sequence to show.
    const std::vector<TextPair> ex = worker.examples();
    REQUIRE(ex.size() == 1);
    REQUIRE(ex[0].src.size() >= 4);
    REQUIRE(ex[0].src.size() % 2 == 0);
    const size_t half = ex[0].src.size() / 2;
    for (size_t i = 0; i < half; ++i) CHECK(ex[0].src[i] == ex[0].src[half + i]);
}

TEST_CASE("the session adopts an induction run, and the form and --train-task accept the task",
          "[training][induction][view_state][launch_options]") {
    Training training(WorkMode::between_frames);
    Session session = *default_session("/nonexistent-assets", std::nullopt, std::nullopt);
    REQUIRE(training.start(session, induction_job(3)));
    for (int frame = 0; frame < 10000 && training.active(); ++frame) {
        training.pump(std::chrono::milliseconds(20));
        training.sync(session);
    }
    training.sync(session);
    REQUIRE(training.progress().state == TrainState::finished);
    CHECK(training.linked(session));
    CHECK(training.shown_step() == 3);
    CHECK(session.model().config.arch == Arch::decoder_only);
    CHECK(session.tgt_text().find(join_words(training.examples().front().src)) != std::string::npos);

    CHECK(is_train_task("induction"));
    CHECK(train_task_names().back() == "induction");
    auto o = parse_launch_options({"--train-steps", "20", "--train-task", "induction"});
    REQUIRE(o);
    CHECK(*o->train_task == "induction");
    CHECK(ViewState::from_json(R"({"train": {"task": "induction"}})").train.task == "induction");
}

TEST_CASE("the induction record halves past kMaxPoints, keeping the first and the newest point",
          "[training][induction]") {
    InductionRecord r(1, 2);
    HeadDetectorScores s;
    s.layers.resize(1);
    s.layers[0].heads = {{0.5f, 0.25f, 0.125f}, {0.75f, 0.0f, 1.0f}};
    for (int step = 0; step < static_cast<int>(InductionRecord::kMaxPoints); ++step)
        r.add(step, CopyLosses{1.0 + step, 2.0}, s);
    CHECK(r.size() == InductionRecord::kMaxPoints / 2 + 1);
    CHECK(r.step(0) == 0);
    CHECK(r.step(1) == 2);
    CHECK(r.step(r.size() - 1) == static_cast<int>(InductionRecord::kMaxPoints) - 1);
    CHECK(r.first_copy_loss(1) == 3.0f);
    CHECK(r.score(r.size() - 1, 0, 1, HeadScoreKind::duplicate_token) == 1.0f);
    const ScoredHead best = best_head(r, 0, HeadScoreKind::induction);
    CHECK(best.layer == 0);
    CHECK(best.head == 1);
}
