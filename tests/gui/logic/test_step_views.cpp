// Every step of the zoo's families opens a view of its own when the stepper stops on it, and takes its part's colour
// in the stepper's timeline: Gemma 2's post-sublayer norms and soft-capped logits, T5's and BLOOM's position biases
// among them (the switches once left those to the fallback: the stepper's own view, the embeddings' green).
#include "hf/open_model.h"
#include "panels/panel_context.h"
#include "panels/stepper_timeline.h"
#include "stepper.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

// The view and the timeline colour a kind of step belongs to, as a reader of the model expects.
std::pair<View, TimelineGroup> expected_place(StepKind kind) {
    switch (kind) {
        case StepKind::position_bias: return {View::positional, TimelineGroup::embedding};
        case StepKind::post_norm: return {View::residual, TimelineGroup::residual};
        case StepKind::capped_logits: return {View::output, TimelineGroup::output};
        case StepKind::attention: return {View::attention, TimelineGroup::attention};
        case StepKind::ffn: return {View::ffn, TimelineGroup::ffn};
        case StepKind::residual:
        case StepKind::norm: return {View::residual, TimelineGroup::residual};
        case StepKind::logits:
        case StepKind::probs: return {View::output, TimelineGroup::output};
        default: return {View::stepper, TimelineGroup::embedding};  // not checked
    }
}

}  // namespace

TEST_CASE("the zoo's steps open their own views and take their part's colour in the timeline", "[views]") {
    for (const char* fixture : {"hf_gemma2", "hf_t5", "hf_bloom"}) {
        INFO(fixture);
        auto loaded = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/" + fixture);
        REQUIRE(loaded);
        ForwardInputs in;
        in.tgt_ids = {3, 7, 11, 5};
        if (loaded->model.config.has_encoder()) in.src_ids = {4, 9, 2};
        auto stepper = Stepper::create(loaded->model.config, loaded->model.weights, in);
        REQUIRE(stepper);
        std::set<StepKind> checked;
        for (const Step& step : stepper->steps()) {
            const StepId& id = step.record.id;
            INFO(step.path);
            CHECK(view_for_step(id) != View::stepper);
            const auto [view, group] = expected_place(id.kind);
            if (view == View::stepper) continue;
            CHECK(view_for_step(id) == view);
            CHECK(timeline_group(id.kind) == group);
            checked.insert(id.kind);
        }
        CHECK(checked.count(StepKind::attention));
        if (std::string(fixture) == "hf_gemma2") {
            CHECK(checked.count(StepKind::post_norm));
            CHECK(checked.count(StepKind::capped_logits));
        } else {
            CHECK(checked.count(StepKind::position_bias));
        }
    }
}
