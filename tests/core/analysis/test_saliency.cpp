// Token saliency: ‖∂L/∂x[t]‖₂ and ∂L/∂x[t]·x[t] by hand, and gradient × input as the first-order change in a loss
// when a token's embedding is removed.
#include "../test_support.h"
#include "analysis/saliency.h"
#include "backward/backward_pass.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;

TEST_CASE("token saliency is the gradient's norm and its dot product with the input", "[saliency]") {
    Tensor x({2, 2}), d({2, 2});
    x.data = {1.0f, 2.0f, -3.0f, 0.5f};
    d.data = {3.0f, 4.0f, 0.0f, -2.0f};
    const TokenSaliency s = token_saliency(x, d);
    REQUIRE(s.gradient_norm.size() == 2);
    CHECK(s.gradient_norm[0] == Approx(5.0f));
    CHECK(s.gradient_norm[1] == Approx(2.0f));
    CHECK(s.gradient_times_input[0] == Approx(11.0f));
    CHECK(s.gradient_times_input[1] == Approx(-1.0f));
}

TEST_CASE("gradient × input of a logit difference predicts the change when a token's embedding is scaled down",
          "[saliency][backward]") {
    // logit-diff is linear in the logits; scaling one token's embedding by (1 − ε) moves it by −ε·(gradient·input)
    // to first order.
    const ModelConfig c = test::small_config();
    Stepper forward = test::make_stepper(c);
    forward.run_all();
    const auto spec = LossSpec::parse("logit-diff:4,7@2");
    REQUIRE(spec);
    auto pass = BackwardPass::create(forward, *spec);
    REQUIRE(pass);
    pass->run_all(forward);
    const TraceEntry* d_embed = pass->gradient("tgt.embed");
    REQUIRE(d_embed);
    const TokenSaliency s = token_saliency(*forward.output("tgt.embed"), d_embed->value);
    // Scale the table row of the token at position 1 (a token that appears once) and rerun.
    const int token = forward.inputs().tgt_ids[1];
    const float eps = 1e-3f;
    Weights scaled = forward.weights();
    Tensor table = scaled.at("tgt_embed.weight");
    table.row(token) *= 1.0f - eps;
    scaled.set("tgt_embed.weight", table);
    auto moved = Stepper::create(c, scaled, forward.inputs());
    REQUIRE(moved);
    moved->run_all();
    auto moved_pass = BackwardPass::create(*moved, *spec);
    REQUIRE(moved_pass);
    const double change = moved_pass->loss() - pass->loss();
    CHECK(change == Approx(-eps * s.gradient_times_input[1]).epsilon(0.05).margin(1e-6));
}
