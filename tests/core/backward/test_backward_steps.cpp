// Each backward function the step graph added, against central finite differences of its forward, and the
// backward pass as steps: stepping gives the bits that running it whole gives, and a gradient is shown only once
// every step that adds to it has run.
#include "../test_support.h"
#include "backward/backward_pass.h"
#include "forward/linear_map.h"
#include "ops/attention.h"
#include "ops/rms_norm.h"
#include "ops/rotary.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

using namespace attnlab;
using attnlab::test::random_tensor;

namespace {

double dot(const Tensor& a, const Tensor& b) {
    double s = 0.0;
    for (size_t i = 0; i < a.data.size(); ++i) s += static_cast<double>(a.data[i]) * b.data[i];
    return s;
}

// L(x) = Σ r ⊙ f(x): each entry of `analytic` (dL/dx by the backward, given dL/df = r) against
// (L(x + ε·e_i) − L(x − ε·e_i)) / 2ε, within 1e-3 of the largest entry.
void check_finite_differences(const Tensor& x, const Tensor& r, const std::function<Tensor(const Tensor&)>& f,
                              const Tensor& analytic) {
    REQUIRE(analytic.shape == x.shape);
    const float eps = 1e-2f;
    float largest = 1e-3f;
    for (float v : analytic.data) largest = std::max(largest, std::abs(v));
    for (size_t i = 0; i < x.data.size(); ++i) {
        Tensor up = x, down = x;
        up.data[i] += eps;
        down.data[i] -= eps;
        const double numeric = (dot(r, f(up)) - dot(r, f(down))) / (2.0 * eps);
        INFO("entry " << i);
        CHECK(std::abs(numeric - analytic.data[i]) <= 1e-3 * largest);
    }
}

}  // namespace

TEST_CASE("RMSNorm's backward matches finite differences in x and in γ", "[backward]") {
    const Tensor x = random_tensor({3, 6}, 1), gain = random_tensor({6}, 2), r = random_tensor({3, 6}, 3);
    const float eps = 1e-5f;
    Tensor d_gain({6});
    const Tensor dx = rms_norm_backward(x, gain, eps, r, d_gain);
    check_finite_differences(
        x, r, [&](const Tensor& v) { return rms_norm_forward(v, gain, eps); }, dx);
    check_finite_differences(
        gain, r, [&](const Tensor& g) { return rms_norm_forward(x, g, eps); }, d_gain);
}

TEST_CASE("RoPE's backward turns the gradient back by each position's angles", "[backward]") {
    const Tensor x = random_tensor({2, 5, 8}, 4), r = random_tensor({2, 5, 8}, 5);
    const std::vector<float> theta = {1.0f, 0.3f, 0.05f, 0.01f};
    const Tensor dx = apply_rotary_backward(r, theta, 3);
    check_finite_differences(
        x, r, [&](const Tensor& v) { return apply_rotary(v, theta, 3); }, dx);
}

TEST_CASE("QKᵀ's backward with grouped K heads matches finite differences", "[backward]") {
    const Tensor q = random_tensor({4, 3, 2}, 6), k = random_tensor({2, 5, 2}, 7), r = random_tensor({4, 3, 5}, 8);
    const ScoresGrads g = attention_scores_backward(q, k, r);
    check_finite_differences(
        q, r, [&](const Tensor& v) { return attention_scores(v, k); }, g.dq);
    check_finite_differences(
        k, r, [&](const Tensor& v) { return attention_scores(q, v); }, g.dk);
}

TEST_CASE("weights·V's backward with grouped V heads and an ablated head matches finite differences", "[backward]") {
    const Tensor w = random_tensor({4, 3, 5}, 9), v = random_tensor({2, 5, 2}, 10), r = random_tensor({4, 3, 2}, 11);
    const std::set<int> ablated = {1};
    const ContextGrads g = attention_context_backward(w, v, r, ablated);
    check_finite_differences(
        w, r, [&](const Tensor& t) { return attention_context(t, v, ablated); }, g.d_weights);
    check_finite_differences(
        v, r, [&](const Tensor& t) { return attention_context(w, t, ablated); }, g.dv);
    for (int64_t i = 0; i < 15; ++i) CHECK(g.d_weights.data[static_cast<size_t>(15 + i)] == 0.0f);  // head 1
}

TEST_CASE("the mask passes the gradient where it allows and nothing where it forbids", "[backward]") {
    const Tensor d = random_tensor({2, 2, 3}, 12);
    Tensor mask({2, 3});
    mask.data = {1, 0, 1, 1, 1, 0};
    const Tensor got = mask_scores_backward(d, mask);
    for (size_t i = 0; i < got.data.size(); ++i) CHECK(got.data[i] == (mask.data[i % 6] != 0.0f ? d.data[i] : 0.0f));
}

TEST_CASE("a linear map's backward fills only its own rows or columns of a packed weight", "[backward]") {
    for (const WeightLayout layout : {WeightLayout::out_in, WeightLayout::in_out}) {
        INFO((layout == WeightLayout::out_in ? "out_in" : "in_out"));
        const LinearParams map{"w", "b", false, layout, 4, 9, 3, 3};  // the middle 3 of 9 packed outputs
        Weights weights;
        weights.set("w", random_tensor(map.weight_shape(), 13));
        weights.set("b", random_tensor({9}, 14));
        const Tensor x = random_tensor({2, 4}, 15), r = random_tensor({2, 3}, 16);
        ParamGrads grads;
        const Tensor dx = linear_map_backward(weights, map, x, r, grads);
        check_finite_differences(
            x, r, [&](const Tensor& v) { return linear_map_forward(weights, map, v); }, dx);
        auto with = [&](const std::string& name, const Tensor& value) {
            Weights changed = weights;
            changed.set(name, value);
            return linear_map_forward(changed, map, x);
        };
        check_finite_differences(
            weights.at("w"), r, [&](const Tensor& w) { return with("w", w); }, grads.all().at("w"));
        check_finite_differences(
            weights.at("b"), r, [&](const Tensor& b) { return with("b", b); }, grads.all().at("b"));
        for (int64_t o : {0, 1, 2, 6, 7, 8}) CHECK(grads.all().at("b").data[static_cast<size_t>(o)] == 0.0f);
    }
}

TEST_CASE("each loss's gradient of the logits matches finite differences", "[backward][loss]") {
    const Tensor logits = random_tensor({4, 6}, 17);
    const std::vector<int> ids = {1, 3, 0, 5};  // id 0 is padding: position 1's next token is not a target
    for (const char* text : {"next-token", "token:4@2", "logit-diff:1,5@3"}) {
        INFO(text);
        const auto spec = LossSpec::parse(text);
        REQUIRE(spec);
        CHECK(spec->to_string() == text);
        const auto value = evaluate_loss(*spec, logits, ids, 0);
        REQUIRE(value);
        Tensor one({1});
        one.data[0] = 1.0f;
        check_finite_differences(
            logits, one,
            [&](const Tensor& l) {
                Tensor v({1});
                v.data[0] = static_cast<float>(evaluate_loss(*spec, l, ids, 0)->value);
                return v;
            },
            value->d_logits);
    }
    CHECK(evaluate_loss(LossSpec{}, logits, ids, 0)->n_counted == 2);
}

TEST_CASE("bad losses get one-line errors", "[backward][loss]") {
    for (const char* text : {"", "next", "token:", "token:3", "token:x@1", "token:3@-1", "logit-diff:3@1",
                             "logit-diff:3,@1", "token:3@1@2"}) {
        INFO(text);
        const auto spec = LossSpec::parse(text);
        REQUIRE(!spec);
        CHECK(spec.error().message.find('\n') == std::string::npos);
    }
    const Tensor logits = random_tensor({3, 5}, 18);
    CHECK(evaluate_loss(*LossSpec::parse("token:5@0"), logits, {1, 2, 3}, -1).error().message.find("vocabulary") !=
          std::string::npos);
    CHECK(evaluate_loss(*LossSpec::parse("token:1@3"), logits, {1, 2, 3}, -1).error().message.find("past") !=
          std::string::npos);
    CHECK(!evaluate_loss(LossSpec{}, random_tensor({1, 5}, 19), {1}, -1));
    ModelConfig encoder = test::small_config();
    encoder.arch = Arch::encoder_only;
    CHECK(!default_loss(encoder));
}

TEST_CASE("stepping the backward pass gives the bits of running it whole", "[backward]") {
    const Stepper forward = [] {
        Stepper s = test::make_stepper(test::small_config());
        s.run_all();
        return s;
    }();
    auto whole = BackwardPass::create(forward, LossSpec{});
    REQUIRE(whole);
    whole->run_all(forward);
    auto stepped = BackwardPass::create(forward, LossSpec{});
    REQUIRE(stepped);
    REQUIRE(stepped->size() == whole->size());
    // The logits' gradient is whole from the start; the token embeddings' only at the very end.
    CHECK(stepped->gradient("logits") != nullptr);
    CHECK(stepped->gradient("src.input") == nullptr);
    size_t steps = 0;
    while (stepped->step(forward)) ++steps;
    CHECK(steps == whole->size());
    CHECK(!stepped->step(forward));
    REQUIRE(stepped->reached() == whole->reached());
    for (const size_t i : whole->reached()) {
        const std::string& path = forward.step(i).path;
        INFO(path);
        REQUIRE(stepped->gradient(i));
        CHECK(test::bit_equal(stepped->gradient(i)->value, whole->gradient(i)->value));
        CHECK(stepped->gradient(path) == stepped->gradient(i));  // the path names the same entry
    }
    REQUIRE(stepped->param_grads().size() == whole->param_grads().size());
    for (const auto& [name, grad] : whole->param_grads()) CHECK(test::bit_equal(stepped->param_grads().at(name), grad));
    // The backward steps run last-first, starting from the output projection; masks have none.
    CHECK(forward.step(whole->forward_index(0)).path == "logits");
    for (size_t k = 0; k < whole->size(); ++k)
        CHECK(forward.step(whole->forward_index(k)).path.rfind("masks.", 0) != 0);
    CHECK(BackwardPass::plan(forward).size() == whole->size());
}

TEST_CASE("a backward pass needs the whole forward pass and logits", "[backward]") {
    Stepper partial = test::make_stepper(test::small_config());
    partial.run_to(3);
    CHECK(!BackwardPass::create(partial, LossSpec{}));
}
