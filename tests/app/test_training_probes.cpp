// The probe record (gradient norms by layer, attention entropies by head) travels from the training
// worker to the app model's progress, as the loss curve and the held-out scores do.
#include "default_model.h"
#include "train/probes.h"
#include "training.h"
#include "training_support.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

// The shared small copy run, with the probe interval under test.
TrainJob copy_job(int steps, int probe_every) {
    TrainJob job = test::copy_job(steps);
    job.probe_every = probe_every;
    return job;
}

using test::wait_for;

}  // namespace

TEST_CASE(
    "the worker records gradient norms and head entropies every probe_every steps, and the progress "
    "carries them",
    "[training][probes][needs_threads]") {
    TrainingWorker worker;
    REQUIRE(worker.start(copy_job(5, 2)));
    const std::shared_ptr<const Model> initial = worker.initial();
    REQUIRE(initial);
    REQUIRE(wait_for([&] { return !worker.active(); }));
    TrainProgress p;
    REQUIRE(worker.poll(p));
    REQUIRE(p.state == TrainState::finished);

    const ProbeRecord& r = p.probes;
    CHECK(r.every() == 2);
    // Step 0 (the untrained model), the due steps 2 and 4, and the last step, 5.
    REQUIRE(r.size() == 4);
    CHECK(r.step(0) == 0);
    CHECK(r.step(1) == 2);
    CHECK(r.step(2) == 4);
    CHECK(r.step(3) == 5);

    // Its rows are the model's: each parameter group, and each attention of the pass with every head.
    const std::vector<ParamGroup> groups = param_groups(initial->config, initial->weights);
    REQUIRE(r.groups().size() == groups.size());
    for (size_t g = 0; g < groups.size(); ++g) CHECK(r.groups()[g] == groups[g].id);
    CHECK(r.sites() == pass_attention_sites(initial->config));
    CHECK(r.n_heads() == initial->config.n_heads);

    for (size_t g = 0; g < groups.size(); ++g) {
        CHECK(std::isnan(r.grad_norm(0, g)));  // no gradient before the first step
        for (size_t i = 1; i < r.size(); ++i) CHECK(r.grad_norm(i, g) > 0.0f);
    }
    // The last point's norms are the last step's, whose squares add up to its global |g|.
    double sum = 0.0;
    for (size_t g = 0; g < groups.size(); ++g) {
        CHECK(r.grad_norm(3, g) == p.last.group_grad_norms[g]);
        sum += static_cast<double>(r.grad_norm(3, g)) * r.grad_norm(3, g);
    }
    CHECK(std::sqrt(sum) == Approx(p.last.grad_norm).epsilon(1e-5));

    // Entropies within [0, the uniform head's], on the task's first held-out pair.
    for (size_t i = 0; i < r.size(); ++i)
        for (size_t s = 0; s < r.sites().size(); ++s)
            for (int h = 0; h < r.n_heads(); ++h) {
                CHECK(r.entropy(i, s, h) >= 0.0f);
                CHECK(r.entropy(i, s, h) <= r.uniform_entropy(s) + 1e-4f);
            }
    auto task = make_task("copy", 3);
    REQUIRE(task.ok());
    CHECK(p.probe_example.src == (*task)->heldout().front().src);
    CHECK(p.probe_example.tgt == (*task)->heldout().front().tgt);
    // Step 0's entropies are those of the initial weights on that pair.
    auto at_start = attention_entropies(initial->config, initial->weights, to_token_pair(**task, p.probe_example));
    REQUIRE(at_start.ok());
    for (size_t s = 0; s < r.sites().size(); ++s)
        for (int h = 0; h < r.n_heads(); ++h)
            CHECK(r.entropy(0, s, h) == Approx((*at_start)[s].heads[static_cast<size_t>(h)]).margin(1e-6));
}

TEST_CASE("probe_every 0 spreads about kAutoProbePoints over the run", "[training][probes][needs_threads]") {
    TrainingWorker worker;
    REQUIRE(worker.start(copy_job(3, 0)));
    REQUIRE(wait_for([&] { return !worker.active(); }));
    TrainProgress p;
    REQUIRE(worker.poll(p));
    CHECK(p.probes.every() == 1);  // 3 steps: every step
    CHECK(p.probes.size() == 4);

    // A run of 1000 steps records every 5th (the record is laid out at start: no need to run it).
    TrainingWorker long_run;
    REQUIRE(long_run.start(copy_job(1000, 0)));
    CHECK(long_run.progress().probes.every() == (1000 + TrainJob::kAutoProbePoints - 1) / TrainJob::kAutoProbePoints);
    long_run.stop();
    REQUIRE(long_run.progress().probes.size() >= 1);
    CHECK(long_run.progress().probes.step(0) == 0);  // the untrained model's point comes first
}

TEST_CASE("the app model's Training hands the panel the record as the run goes", "[training][probes][session][needs_threads]") {
    Session s = *default_session("/nonexistent-assets", std::nullopt, std::nullopt);
    Training training;
    REQUIRE(training.start(s, copy_job(4, 1)));
    REQUIRE(wait_for([&] {
        training.sync(s);
        return !training.active();
    }));
    training.sync(s);
    const TrainProgress& p = training.progress();
    REQUIRE(p.state == TrainState::finished);
    REQUIRE(p.probes.size() == 5);  // steps 0..4
    for (size_t i = 0; i < p.probes.size(); ++i) CHECK(p.probes.step(i) == static_cast<int>(i));
    CHECK_FALSE(p.probe_example.src.empty());
    CHECK(p.probes.sites().size() ==
          static_cast<size_t>(s.model().config.n_encoder_layers + 2 * s.model().config.n_decoder_layers));
}
