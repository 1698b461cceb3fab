// The router view's numbers (app/model/router_table.h) on the OLMoE fixture: each token's top 2 experts and their
// weights, the load per expert, an expert switched off, and the chosen experts' hidden units, which through each
// expert's down projection and weight add up to the layer's FFN output.
#include "router_table.h"

#include "forward/linear_map.h"
#include "hf/open_model.h"

#include <catch2/catch.hpp>

#include <numeric>

using namespace attnlab;

namespace {

Stepper olmoe_stepper() {
    auto loaded = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_olmoe");
    REQUIRE(loaded);
    ForwardInputs in;
    in.tgt_ids = {2, 17, 33, 5, 41, 12, 12, 29, 8};
    auto stepper = Stepper::create(loaded->model.config, loaded->model.weights, in);
    REQUIRE(stepper);
    stepper->run_all();
    return std::move(*stepper);
}

}  // namespace

TEST_CASE("the router table: each token's top 2, the load per expert and an expert switched off", "[router]") {
    Stepper stepper = olmoe_stepper();
    const FfnSite ffn{Stack::decoder, 0};
    auto t = router_table(stepper, ffn);
    REQUIRE(t);
    CHECK((t->n_tokens == 9 && t->n_experts == 6));
    for (const auto& chosen : t->chosen) {
        REQUIRE(chosen.size() == 2);
        CHECK(chosen[0].score >= chosen[1].score);
        for (const ExpertChoice& c : chosen) CHECK(c.weight > 0.0f);
    }
    CHECK(std::accumulate(t->tokens_per_expert.begin(), t->tokens_per_expert.end(), 0) == 18);  // 9 tokens × 2
    const int expert = t->chosen[0][0].expert;
    REQUIRE(stepper.set_expert_ablated(ffn, expert, true));
    t = router_table(stepper, ffn);
    REQUIRE(t);
    CHECK(t->switched_off == std::set<int>{expert});
    CHECK(t->chosen[0][0].expert == expert);  // still the router's choice, its weight now 0
    CHECK(t->chosen[0][0].weight == 0.0f);
    CHECK(t->weight_per_expert[static_cast<size_t>(expert)] == 0.0f);
    CHECK_FALSE(router_table(stepper, {Stack::decoder, 5}));  // no such layer
}

TEST_CASE("the chosen experts' units, down-projected and weighted, sum to the FFN's output", "[router]") {
    const Stepper stepper = olmoe_stepper();
    const FfnSite ffn{Stack::decoder, 1};
    const auto t = router_table(stepper, ffn);
    REQUIRE(t);
    const LayerParams params = layer_params(stepper.config(), Stack::decoder, 1);
    const Tensor& out = *stepper.output("decoder.layers.1.ffn.out");
    for (int token : {0, 4, 8}) {
        const auto units = chosen_expert_units(stepper, ffn, *t, token);
        REQUIRE(units.size() == 2);
        RowVec sum = RowVec::Zero(out.dim(1));
        for (const ExpertUnits& u : units) {
            REQUIRE(u.units.size() == 8);  // expert_d_ff
            Tensor h = Tensor::uninitialized({1, 8});
            std::copy(u.units.begin(), u.units.end(), h.data.begin());
            sum += u.choice.weight * linear_map_forward(stepper.weights(), params.experts->down[u.choice.expert], h)
                                         .row(0);
        }
        CHECK((sum - out.row(token)).cwiseAbs().maxCoeff() < 1e-5f);
    }
}
