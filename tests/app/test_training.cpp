// The app's side of training, without a display: the worker thread (progress, pause, stop,
// snapshots, errors), the session adopting its snapshots, the chunked held-out evaluation,
// and the start-up model.
#include "default_model.h"
#include "io/model_file.h"
#include "launch_options.h"
#include "train/evaluate.h"
#include "training.h"
#include "training_support.h"
#include "view_state.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

using namespace attnlab;
using namespace attnlab::gui;

using test::copy_job;
using test::same_values;
using test::wait_for;

TEST_CASE("the worker trains on its thread, evaluates, and publishes snapshots that move away from step 0",
          "[training][needs_threads]") {
    TrainingWorker worker;
    REQUIRE(worker.start(copy_job(6)));
    REQUIRE(worker.initial());
    CHECK(worker.initial()->training->task == "copy");
    CHECK_FALSE(worker.examples().empty());
    REQUIRE(wait_for([&] { return !worker.active(); }));

    TrainProgress p;
    REQUIRE(worker.poll(p));
    CHECK_FALSE(worker.poll(p));  // nothing new since
    CHECK(p.state == TrainState::finished);
    CHECK(p.step == 6);
    CHECK(p.total == 6);
    CHECK(p.train_loss.size() == 6);
    CHECK(p.steps_per_second > 0.0);
    REQUIRE(p.heldout.size() == 3);  // step 0, step 3, and the final one at 6
    CHECK(p.heldout[0].step == 0);
    CHECK(p.heldout[1].step == 3);
    CHECK(p.heldout[2].step == 6);
    CHECK(p.heldout[2].scores.n_examples == 8);
    CHECK(p.heldout[2].scores.loss > 0.0);

    const WeightSnapshot snap = worker.snapshot();
    CHECK(snap.step == 6);
    CHECK(snap.serial == p.snapshot_serial);
    CHECK(snap.serial > 2);
    CHECK_FALSE(same_values(*snap.weights, worker.initial()->weights));
    const auto latest = worker.latest_model();
    CHECK(latest->training->steps == 6);
    CHECK(same_values(latest->weights, *snap.weights));
}

TEST_CASE("pause holds the step count until resume, and stop joins a running worker", "[training][needs_threads]") {
    TrainingWorker worker;
    TrainJob job = copy_job(100000);
    job.eval_every = 100000;
    REQUIRE(worker.start(job));
    REQUIRE(wait_for([&] { return worker.progress().step >= 2; }));
    worker.pause();
    REQUIRE(wait_for([&] { return worker.progress().state == TrainState::paused; }));
    const int paused_at = worker.progress().step;
    CHECK(worker.snapshot().step == paused_at);  // the views show exactly the paused weights
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(worker.progress().step == paused_at);
    CHECK(worker.active());

    worker.resume();
    REQUIRE(wait_for([&] { return worker.progress().step > paused_at; }));
    worker.stop();
    const TrainProgress p = worker.progress();
    CHECK(p.state == TrainState::stopped);
    CHECK_FALSE(worker.active());
    const int stopped_at = p.step;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK(worker.progress().step == stopped_at);
    CHECK(worker.snapshot().step == stopped_at);
}

TEST_CASE("stop while paused, and destroying a running worker, end the thread", "[training][needs_threads]") {
    {
        TrainingWorker worker;
        REQUIRE(worker.start(copy_job(100000)));
        worker.pause();
        worker.stop();
        CHECK(worker.progress().state == TrainState::stopped);
    }
    {
        TrainingWorker worker;
        REQUIRE(worker.start(copy_job(100000)));
        REQUIRE(wait_for([&] { return worker.progress().step >= 1; }));
    }  // the destructor stops and joins
    SUCCEED("no hang, no crash");
}

TEST_CASE("bad settings are reported, not thrown", "[training][needs_threads]") {
    TrainingWorker worker;
    TrainJob job = copy_job(5);
    job.settings.task = "chess";
    const Status st = worker.start(job);
    REQUIRE_FALSE(st);
    CHECK_THAT(st.error().message, Catch::Contains("unknown task 'chess'"));
    CHECK(worker.progress().state == TrainState::failed);
    CHECK_THAT(worker.progress().error, Catch::Contains("chess"));
    CHECK_FALSE(worker.active());
    CHECK(worker.initial() == nullptr);

    job = copy_job(5);
    job.settings.batch_size = 0;
    CHECK_FALSE(worker.start(job));
    job.settings.batch_size = 4;
    job.settings.preset = "huge";
    CHECK_FALSE(worker.start(job));

    // A failed start leaves nothing of the run before it.
    REQUIRE(worker.start(copy_job(1)));
    REQUIRE(wait_for([&] { return !worker.active(); }));
    REQUIRE(worker.initial());
    job.settings.preset = "huge";
    CHECK_FALSE(worker.start(job));
    CHECK(worker.initial() == nullptr);
    CHECK(worker.snapshot().weights == nullptr);
    CHECK(worker.latest_model() == nullptr);

    Session s = *default_session("/nonexistent-assets", std::nullopt, std::nullopt);
    Training training;
    job.settings.task = "nope";
    CHECK_FALSE(training.start(s, job));
    CHECK_FALSE(training.has_run());
    CHECK(s.src_text() == kExampleSource);  // the session is untouched
}

TEST_CASE("the session adopts the run, then its snapshots, keeping the user's text, masks and heads",
          "[training][session][needs_threads]") {
    Session s = *default_session("/nonexistent-assets", std::nullopt, std::nullopt);
    Training training;
    TrainJob job = copy_job(100000);
    job.eval_every = 100000;
    REQUIRE(training.start(s, job));
    REQUIRE(training.linked(s));
    REQUIRE(s.model().training);
    CHECK(s.model().training->task == "copy");
    const TextPair example = training.examples().front();
    CHECK(s.src_text() == join_words(example.src));  // the task's first example
    CHECK(s.tgt_text() == join_words(example.tgt));
    CHECK(training.shown_step() == 0);

    // The user's edits, which every snapshot must keep.
    const std::string mine = "b a d";
    REQUIRE(s.set_src_text(mine));
    REQUIRE(s.toggle_head({AttentionUse::encoder_self, 0}, 1));
    REQUIRE(s.toggle_mask_cell(AttentionUse::encoder_self, 0, 1));
    const Tensor logits_before = *s.stepper().output("logits");
    const uint64_t serial = s.model_serial();

    REQUIRE(wait_for([&] {
        training.sync(s);
        return training.shown_step() >= 2;
    }));
    training.pause();
    REQUIRE(wait_for([&] {
        training.sync(s);
        return training.progress().state == TrainState::paused && training.shown_step() == training.progress().step;
    }));
    CHECK(s.model_serial() == serial);  // the same model, new weights
    CHECK(s.src_text() == mine);
    CHECK(s.stepper().inputs().ablated_heads.at({AttentionUse::encoder_self, 0}).count(1) == 1);
    CHECK(s.stepper().output("masks.encoder_self")->data[1] == 0.0f);
    CHECK(s.stepper().output("logits")->data != logits_before.data);
    // The session reads the snapshot's tensors themselves: no copy of the numbers.
    CHECK(s.stepper().weights().shared("src_embed.weight") == training.snapshot().weights->shared("src_embed.weight"));
    CHECK(s.stepper().weights().at("src_embed.weight").data != training.initial()->weights.at("src_embed.weight").data);
    CHECK_THAT(s.model_name(), Catch::Contains("step " + std::to_string(training.shown_step())));

    // Compare with step 0, and back.
    const Tensor trained_logits = *s.stepper().output("logits");
    training.set_compare(s, true, false);
    CHECK(training.shown_step() == 0);
    CHECK(s.src_text() == mine);
    training.set_compare(s, false, false);
    CHECK(training.shown_step() == training.progress().step);
    CHECK(s.stepper().output("logits")->data == trained_logits.data);

    // Another model opened: snapshots no longer go to the session, until asked for again.
    RandomModelSpec spec;
    REQUIRE(s.new_random_model(spec));
    CHECK_FALSE(training.linked(s));
    const uint64_t generation = s.generation();
    const int paused_at = training.progress().step;
    training.resume();
    REQUIRE(wait_for([&] {
        training.sync(s);
        return training.progress().step > paused_at + 2;
    }));
    CHECK_THAT(s.model_name(), Catch::Contains("random"));
    CHECK(s.generation() == generation);
    REQUIRE(training.show_in_session(s));
    CHECK(training.linked(s));
    training.stop();
}

TEST_CASE("a snapshot fits the session's switched config, and a saved run reopens with its record",
          "[training][session][needs_threads]") {
    Session s = *default_session("/nonexistent-assets", std::nullopt, std::nullopt);
    Training training;
    REQUIRE(training.start(s, copy_job(3)));
    ModelConfig c = s.stepper().config();
    c.positional = Positional::learned;  // a switch that adds a tensor the trainer does not have
    REQUIRE(s.set_config(c));
    REQUIRE(wait_for([&] {
        training.sync(s);
        return !training.active();
    }));
    training.sync(s);
    CHECK(training.shown_step() == 3);
    CHECK(s.stepper().config().positional == Positional::learned);
    CHECK(s.stepper().weights().find("pos_embed.weight"));

    const std::string path = (std::filesystem::temp_directory_path() / "attnlab-test-trained.safetensors").string();
    REQUIRE(training.save(path));
    auto model = io::read_model(path);
    REQUIRE(model);
    REQUIRE(model->training);
    CHECK(model->training->task == "copy");
    CHECK(model->training->steps == 3);
    CHECK_FALSE(training.save("/nonexistent-dir/x.safetensors"));
    std::filesystem::remove(path);
}

TEST_CASE("the chunked evaluation matches evaluate_heldout when uncapped", "[training]") {
    auto trainer = Trainer::create(copy_job(4).settings);
    REQUIRE(trainer);
    for (int i = 0; i < 4; ++i) (*trainer)->train_step();
    const Model& model = (*trainer)->model();
    const Task& task = (*trainer)->task();
    EvalOptions options;
    options.max_examples = 12;
    auto reference = evaluate_heldout(model, task, options);
    REQUIRE(reference);
    HeldoutEval eval(task, {.max_examples = 12, .label_smoothing = options.label_smoothing, .keep_hypotheses = false});
    while (!eval.done()) REQUIRE(eval.run_chunk(model, 5));
    const EvalScores got = eval.scores();
    CHECK(got.n_examples == 12);
    CHECK(got.exact_match == Approx(reference->exact_match));
    CHECK(got.token_accuracy == Approx(reference->token_accuracy));
    CHECK(got.bleu == Approx(reference->bleu));
    CHECK(got.loss == Approx(reference->loss).epsilon(1e-5));
    CHECK(heldout_decode_cap(task, 12) >= 4);
}

TEST_CASE("the loss curve keeps at most kMaxPoints means, each over a whole number of steps", "[training]") {
    LossCurve curve;
    for (int i = 0; i < 5000; ++i) curve.add(static_cast<float>(i % 2));  // mean 0.5 over any even span
    CHECK(curve.size() <= LossCurve::kMaxPoints);
    CHECK(curve.size() >= LossCurve::kMaxPoints / 2 - 1);
    CHECK(curve.stride() == 8);
    for (size_t i = 0; i < curve.size(); ++i) CHECK(curve.mean(i) == 0.5f);
    CHECK(curve.step_at(0) == Approx(4.5f));
}

TEST_CASE("the training form persists and --train-steps is parsed", "[view_state][launch_options]") {
    ViewState v;
    v.train.task = "reverse";
    v.train.steps = 1234;
    v.train.log_loss = false;
    v.tab = View::training;
    const ViewState back = ViewState::from_json(v.to_json());
    CHECK(back.train.task == "reverse");
    CHECK(back.train.steps == 1234);
    CHECK_FALSE(back.train.log_loss);
    CHECK(back.tab == View::training);
    CHECK(ViewState::from_json(R"({"train": {"task": "chess", "preset": "huge", "steps": 7}})").train.task == "en-ko");
    CHECK(ViewState::from_json(R"({"train": {"task": "chess", "preset": "huge", "steps": 7}})").train.preset == "tiny");
    CHECK(ViewState::from_json(R"({"train": {"task": "chess", "preset": "huge", "steps": 7}})").train.steps == 7);
    const TrainJob job = train_job(back.train);
    CHECK(job.settings.task == "reverse");
    CHECK(job.settings.steps == 1234);

    auto o = parse_launch_options({"--view", "training", "--train-steps", "40", "--train-task", "copy"});
    REQUIRE(o);
    CHECK(o->train_steps == 40);
    CHECK(*o->train_task == "copy");
    CHECK_FALSE(parse_launch_options({"--train-steps", "0"}));
    CHECK_FALSE(parse_launch_options({"--train-steps", "10", "--train-task", "chess"}));
    CHECK_FALSE(parse_launch_options({"--train-task", "copy"}));
    CHECK(std::string(train_presets("induction").front()) == "induction");  // the task's own preset first
    CHECK(std::string(train_presets("copy").front()) == "tiny");
    auto on = parse_launch_options({"--train-steps", "5", "--train-on", "notes.txt"});
    REQUIRE(on);
    CHECK(*on->train_on == "notes.txt");
    CHECK(parse_launch_options({"--train-on", "notes.txt"}).error().message == "--train-on needs --train-steps N");
    CHECK(parse_launch_options({"--train-steps", "5", "--train-on", "a.txt", "--train-task", "copy"}).error().message ==
          "give --train-task or --train-on, not both");
    CHECK(parse_launch_options({"--help"})->help);
}

TEST_CASE("the start-up model is the bundled en-ko model when it exists, else a seeded random one", "[default_model]") {
    namespace fs = std::filesystem;
    const fs::path assets = fs::temp_directory_path() / "attnlab-test-assets";
    fs::remove_all(assets);
    fs::create_directories(assets / "models");

    auto fallback = default_session(assets.string(), std::nullopt, std::nullopt);
    REQUIRE(fallback);
    CHECK_THAT(fallback->model_name(), Catch::Contains("random"));
    CHECK(fallback->src_text() == kExampleSource);
    CHECK(fallback->tgt_text() == kExampleTarget);

    // A (barely) trained en-ko model in the bundled place.
    TrainSettings settings;
    settings.task = "en-ko";
    settings.steps = 1;
    settings.batch_size = 2;
    settings.threads = 1;
    auto trainer = Trainer::create(settings);
    REQUIRE(trainer);
    (*trainer)->train_step();
    REQUIRE(io::write_model((assets / "models" / "en-ko.safetensors").string(), (*trainer)->model()));
    CHECK(bundled_default_model(assets.string()) == (assets / "models" / "en-ko.safetensors").string());

    auto bundled = default_session(assets.string(), std::nullopt, std::nullopt);
    REQUIRE(bundled);
    CHECK_THAT(bundled->model_name(), Catch::EndsWith("en-ko.safetensors"));
    CHECK(bundled->src_text() == kExampleSource);
    CHECK(bundled->source().unknown == std::vector<bool>(bundled->source().labels.size(), false));
    // The target is what the model decodes (or the reference): <sos> first, no <eos> at the end.
    const auto& tgt = bundled->stepper().inputs().tgt_ids;
    REQUIRE_FALSE(tgt.empty());
    CHECK(tgt.front() == bundled->stepper().config().sos_id);
    CHECK(tgt.back() != bundled->stepper().config().eos_id);

    auto forced = default_session(assets.string(), std::string("tiny"), std::nullopt);
    REQUIRE(forced);
    CHECK_THAT(forced->model_name(), Catch::Contains("random"));

    // A broken bundled file falls back, and says why.
    std::filesystem::resize_file(assets / "models" / "en-ko.safetensors", 10);
    std::string warning;
    auto broken = default_session(assets.string(), std::nullopt, std::nullopt, &warning);
    REQUIRE(broken);
    CHECK_THAT(broken->model_name(), Catch::Contains("random"));
    CHECK_FALSE(warning.empty());
    fs::remove_all(assets);
}
