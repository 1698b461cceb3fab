// The optimiser's SGD step and clipping by hand, the schedules' rates, and the settings' one-line errors.
#include "train/optimizer.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;

namespace {

Weights two_params() {
    Weights w;
    Tensor a({2});
    a.data = {1.0f, -2.0f};
    Tensor b({1, 2});
    b.data = {0.5f, 0.25f};
    w.set("a", a);
    w.set("b", b);
    return w;
}

Gradients grads_of(float a0, float a1, float b0, float b1) {
    Gradients g;
    g["a"] = Tensor({2});
    g["a"].data = {a0, a1};
    g["b"] = Tensor({1, 2});
    g["b"].data = {b0, b1};
    return g;
}

}  // namespace

TEST_CASE("SGD is w <- w - lr*g, with no momentum, and returns the norm before clipping", "[optimizer]") {
    OptimizerSettings s;
    s.kind = OptimizerKind::sgd;
    s.adam.clip_norm = 0.0f;
    Optimizer sgd(s);
    Weights w = two_params();
    const Weights before = w;
    const double norm = sgd.step(w, grads_of(3, 0, 0, 4), 0.1f);
    CHECK(norm == Approx(5.0));
    CHECK(w.at("a").data[0] == 1.0f - 0.3f);
    CHECK(w.at("a").data[1] == -2.0f);
    CHECK(w.at("b").data[0] == 0.5f);
    CHECK(w.at("b").data[1] == 0.25f - 0.4f);
    CHECK(before.at("a").data[0] == 1.0f);  // a snapshot keeps its weights
    sgd.step(w, grads_of(3, 0, 0, 4), 0.1f);                         // the same step again: no momentum
    CHECK(w.at("a").data[0] == Approx(1.0f - 0.6f));
}

TEST_CASE("clipping scales the gradient to the clip norm before SGD's step", "[optimizer]") {
    OptimizerSettings s;
    s.kind = OptimizerKind::sgd;
    s.adam.clip_norm = 1.0f;
    Optimizer sgd(s);
    Weights w = two_params();
    CHECK(sgd.step(w, grads_of(3, 0, 0, 4), 1.0f) == Approx(5.0));
    CHECK(w.at("a").data[0] == Approx(1.0f - 0.6f).epsilon(1e-5));  // g · 1/5
    CHECK(w.at("b").data[1] == Approx(0.25f - 0.8f).epsilon(1e-5));
}

TEST_CASE("the schedules: constant, a warm-up peak, and the paper's own", "[optimizer]") {
    OptimizerSettings s;
    s.schedule = LrSchedule::constant;
    s.lr = 0.01f;
    CHECK(learning_rate(s, 64, 1) == 0.01f);
    CHECK(learning_rate(s, 64, 1000) == 0.01f);
    s.schedule = LrSchedule::warmup;
    s.adam.warmup_steps = 100;
    CHECK(learning_rate(s, 64, 50) == Approx(0.005f));   // half-way up
    CHECK(learning_rate(s, 64, 100) == Approx(0.01f));   // the peak
    CHECK(learning_rate(s, 64, 400) == Approx(0.005f));  // ∝ 1/√step after it
    s.lr.reset();
    CHECK(learning_rate(s, 64, 100) == Approx(1.0 / std::sqrt(64.0) / std::sqrt(100.0)));
    CHECK(learning_rate(s, 64, 7) == warmup_learning_rate(64, 7, 100, 1.0f));
}

TEST_CASE("optimiser settings and names that cannot run are one-line errors", "[optimizer]") {
    CHECK(parse_optimizer("sgd") == OptimizerKind::sgd);
    CHECK(parse_optimizer("adam") == OptimizerKind::adam);
    CHECK(!parse_optimizer("adamw"));
    CHECK(parse_schedule("constant") == LrSchedule::constant);
    CHECK(!parse_schedule("cosine"));
    OptimizerSettings s;
    CHECK(check_optimizer(s).ok());
    s.schedule = LrSchedule::constant;
    CHECK(check_optimizer(s).error().message == "a constant schedule needs a learning rate (--lr)");
    s.lr = -1.0f;
    CHECK(check_optimizer(s).error().message == "the learning rate must be a positive number");
    s.lr = 0.1f;
    s.adam.warmup_steps = 0;
    CHECK(check_optimizer(s).error().message == "warm-up steps must be at least 1");
}
