// A training run between frames (WorkMode::between_frames, as the web page runs it): it does nothing
// on its own, each pump() advances it by whole units within its budget, and it gives the threaded
// run's numbers bit for bit; pause, resume and stop work as they do on a thread.
#include "training_support.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <functional>
#include <thread>

using namespace attnlab;
using namespace attnlab::gui;
using test::copy_job;
using test::same_values;
using test::wait_for;

namespace {

constexpr std::chrono::milliseconds kFrameBudget{12};

// Pumps as the app does, once a frame, until `done` holds; returns the frames it took (-1: never, in 100000).
int pump_until(TrainingWorker& worker, const std::function<bool()>& done,
               std::chrono::milliseconds budget = kFrameBudget) {
    for (int frame = 0; frame < 100000; ++frame) {
        if (done()) return frame;
        worker.pump(budget);
    }
    return -1;
}

// Equal bits, where NaN (no gradient norm at step 0) equals NaN.
bool same_float(float a, float b) { return std::isnan(a) ? std::isnan(b) : a == b; }

bool same_probes(const ProbeRecord& a, const ProbeRecord& b) {
    if (a.size() != b.size() || a.groups().size() != b.groups().size() || a.sites().size() != b.sites().size() ||
        a.n_heads() != b.n_heads())
        return false;
    for (size_t p = 0; p < a.size(); ++p) {
        if (a.step(p) != b.step(p)) return false;
        for (size_t g = 0; g < a.groups().size(); ++g)
            if (!same_float(a.grad_norm(p, g), b.grad_norm(p, g))) return false;
        for (size_t s = 0; s < a.sites().size(); ++s)
            for (int h = 0; h < a.n_heads(); ++h)
                if (!same_float(a.entropy(p, s, h), b.entropy(p, s, h))) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("a run pumped between frames gives the threaded run's weights, losses, scores and probes, bit for bit",
          "[training][between_frames][needs_threads]") {
    TrainJob job = copy_job(12);
    job.probe_every = 2;

    TrainingWorker threaded;
    REQUIRE(threaded.start(job));
    REQUIRE(wait_for([&] { return !threaded.active(); }));
    const TrainProgress a = threaded.progress();
    REQUIRE(a.state == TrainState::finished);

    TrainingWorker framed(WorkMode::between_frames);
    CHECK(framed.mode() == WorkMode::between_frames);
    REQUIRE(framed.start(job));
    REQUIRE(framed.initial());
    CHECK(same_values(framed.initial()->weights, threaded.initial()->weights));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(framed.progress().probes.empty());  // nothing happens until a pump
    CHECK(framed.progress().state == TrainState::running);
    const int frames = pump_until(framed, [&] { return !framed.active(); });
    REQUIRE(frames > 0);
    const TrainProgress b = framed.progress();
    REQUIRE(b.state == TrainState::finished);

    CHECK(b.step == 12);
    CHECK(b.step == a.step);
    REQUIRE(b.train_loss.size() == a.train_loss.size());
    for (size_t i = 0; i < a.train_loss.size(); ++i) CHECK(b.train_loss.mean(i) == a.train_loss.mean(i));
    REQUIRE(b.heldout.size() == a.heldout.size());
    for (size_t i = 0; i < a.heldout.size(); ++i) {
        CHECK(b.heldout[i].step == a.heldout[i].step);
        CHECK(b.heldout[i].scores.loss == a.heldout[i].scores.loss);
        CHECK(b.heldout[i].scores.token_accuracy == a.heldout[i].scores.token_accuracy);
        CHECK(b.heldout[i].scores.exact_match == a.heldout[i].scores.exact_match);
        CHECK(b.heldout[i].scores.bleu == a.heldout[i].scores.bleu);
    }
    CHECK(b.probes.size() == 7);  // steps 0, 2, ..., 12
    CHECK(same_probes(b.probes, a.probes));
    CHECK(b.snapshot_serial == a.snapshot_serial);
    CHECK(b.last.grad_norm == a.last.grad_norm);

    const auto trained = framed.latest_model();
    REQUIRE(trained);
    CHECK(trained->training->steps == 12);
    CHECK(same_values(trained->weights, threaded.latest_model()->weights));
    CHECK_FALSE(same_values(trained->weights, framed.initial()->weights));  // it did train
}

TEST_CASE("a pump with no budget left does one unit of work and returns", "[training][between_frames]") {
    TrainingWorker framed(WorkMode::between_frames);
    REQUIRE(framed.start(copy_job(6)));
    const uint64_t version = framed.progress().version;
    framed.pump(std::chrono::milliseconds(0));
    TrainProgress p = framed.progress();
    CHECK(p.version > version);
    CHECK(p.probes.size() == 1);  // the step-0 probe, and no further
    CHECK(p.step == 0);
    CHECK(p.heldout.empty());
    // Each later pump does one unit too: the run ends after as many pumps as it has units.
    int pumps = 1;
    while (framed.active() && pumps < 1000) {
        framed.pump(std::chrono::milliseconds(0));
        ++pumps;
    }
    p = framed.progress();
    CHECK(p.state == TrainState::finished);
    CHECK(p.step == 6);
    // The step-0 probe, 6 steps, and 3 evaluations (steps 0, 3 and 6) of 8 pairs in chunks of 4.
    CHECK(pumps == 1 + 6 + 3 * 2);
}

TEST_CASE("between frames, pause holds the step count until resume, and stop ends the run at once",
          "[training][between_frames]") {
    TrainingWorker framed(WorkMode::between_frames);
    TrainJob job = copy_job(100000);
    job.eval_every = 100000;
    REQUIRE(framed.start(job));
    REQUIRE(pump_until(framed, [&] { return framed.progress().step >= 2; }) > 0);
    framed.pause();
    framed.pump(kFrameBudget);
    REQUIRE(framed.progress().state == TrainState::paused);
    const int paused_at = framed.progress().step;
    CHECK(framed.snapshot().step == paused_at);  // the views show exactly the paused weights
    for (int frame = 0; frame < 10; ++frame) framed.pump(kFrameBudget);
    CHECK(framed.progress().step == paused_at);
    CHECK(framed.progress().state == TrainState::paused);
    CHECK(framed.active());

    framed.resume();
    REQUIRE(pump_until(framed, [&] { return framed.progress().step > paused_at; }) > 0);
    CHECK(framed.progress().state == TrainState::running);
    framed.stop();  // no pump needed: stop ends the run before it returns
    const TrainProgress p = framed.progress();
    CHECK(p.state == TrainState::stopped);
    CHECK_FALSE(framed.active());
    CHECK(framed.snapshot().step == p.step);
    framed.pump(kFrameBudget);
    CHECK(framed.progress().step == p.step);

    SECTION("stop while paused, and destroying a pumped worker mid-run") {
        REQUIRE(framed.start(copy_job(100000)));
        framed.pump(kFrameBudget);
        framed.pause();  // honoured once the step-0 evaluation is over
        REQUIRE(pump_until(framed, [&] { return framed.progress().state == TrainState::paused; }) > 0);
        framed.stop();
        CHECK(framed.progress().state == TrainState::stopped);
        // A stop asked for before any pump ends the run as it would on a thread: after the step-0 probe
        // and one evaluation chunk, whose scores it does not record.
        REQUIRE(framed.start(copy_job(1000)));
        framed.stop();
        CHECK(framed.progress().state == TrainState::stopped);
        REQUIRE(framed.progress().probes.size() == 1);
        CHECK(framed.progress().probes.step(0) == 0);
        CHECK(framed.progress().heldout.empty());
        CHECK(framed.snapshot().step == 0);
        {
            TrainingWorker other(WorkMode::between_frames);
            REQUIRE(other.start(copy_job(100000)));
            REQUIRE(pump_until(other, [&] { return other.progress().step >= 1; }) > 0);
        }  // the destructor stops it
        SUCCEED("no hang, no crash");
    }
}
