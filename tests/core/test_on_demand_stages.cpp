// On-demand attention stages: the trace holds QKᵀ, ÷√D and the masked scores only while a step needs them, and
// what entry()/output() recompute for a view equals, bit for bit, a trace that stored every step.
#include "forward/step_path.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <map>

using namespace attnlab;
using namespace attnlab::test;

namespace {

// Every step's output, computed in order from the one before and all kept: the fully stored trace.
std::map<std::string, Tensor> fully_stored_trace(const Stepper& s) {
    std::map<std::string, Tensor> out;
    for (const Step& step : s.steps()) {
        StepContext ctx{s.config(), s.weights(), s.inputs(), {}};
        for (const StepId& in : step.inputs) ctx.in.push_back(&out.at(step_path(in)));
        out[step.path] = step.compute(ctx).value;
    }
    return out;
}

int64_t floats_of_kept_steps(const Stepper& s) {  // of the steps that have run
    int64_t n = 0;
    for (const Step& step : s.steps())
        if (const Tensor* t = step.retention == Retention::kept ? s.output(step.path) : nullptr) n += t->numel();
    return n;
}

std::vector<ModelConfig> configs() {
    ModelConfig enc_dec = small_config();
    ModelConfig gpt = small_config();
    gpt.arch = Arch::decoder_only;
    gpt.n_encoder_layers = 0;
    gpt.norm_first = true;
    gpt.tie_embeddings = true;
    return {enc_dec, gpt};
}

}  // namespace

TEST_CASE("the run keeps one (T, T) matrix per head, the attention weights, and no copy of a kept output",
          "[stepper][on_demand]") {
    for (const ModelConfig& c : configs()) {
        INFO(to_string(c.arch));
        Stepper s = make_stepper(c);
        s.run_all();
        size_t on_demand = 0, attentions = 0, ffns = 0;
        for (const Step& step : s.steps()) {
            const StepId& id = step.record.id;
            attentions += id.kind == StepKind::attention && id.stage == AttentionStage::weights;
            ffns += id.kind == StepKind::ffn && id.part == FfnPart::hidden;
            if (step.retention != Retention::on_demand) continue;
            ++on_demand;
            INFO(step.path);
            CHECK(((id.kind == StepKind::attention &&
                    (id.stage == AttentionStage::scores || id.stage == AttentionStage::scaled ||
                     id.stage == AttentionStage::masked || id.stage == AttentionStage::concat)) ||
                   (id.kind == StepKind::ffn && id.part == FfnPart::activation)));
        }
        CHECK(attentions > 0);
        CHECK(ffns > 0);
        CHECK(on_demand == 4 * attentions + ffns);
        // Nothing on demand is held after the run: the held floats are the kept outputs' alone.
        const int64_t kept = s.held_floats();
        CHECK(kept == floats_of_kept_steps(s));
        // Asking for a stage holds it (and the stages it is computed from) until others push it out.
        const std::string scores =
            s.config().has_encoder() ? "encoder.layers.0.self_attn.scores" : "decoder.layers.0.self_attn.scores";
        const TraceEntry* facts = s.run_facts(scores);  // what the run counted, without recomputing
        REQUIRE(facts);
        CHECK(facts->version != 0);
        CHECK(facts->value.empty());
        CHECK(facts->value.rank() == 3);  // its shape is kept
        CHECK(s.held_floats() == kept);
        const int64_t one = s.output(scores)->numel();
        CHECK(s.held_floats() == kept + one);
        int64_t most = 0, largest = 0;
        for (const Step& step : s.steps()) {
            if (step.retention != Retention::on_demand) continue;
            const Tensor* value = s.output(step.path);
            REQUIRE(value);
            largest = std::max(largest, value->numel());
            most = std::max(most, s.held_floats());
        }
        CHECK(most <= kept + static_cast<int64_t>(Stepper::kOnDemandHeld) * largest);
        CHECK(most > kept + largest);  // more than one was held at once
        // A step, a run or an edit drops what views asked for.
        REQUIRE(s.set_tgt_ids({1, 6, 13, 8}));
        CHECK(s.held_floats() == floats_of_kept_steps(s));
    }
}

TEST_CASE("on-demand stages equal a fully stored trace bit for bit, asked for in any order", "[stepper][on_demand]") {
    for (const ModelConfig& c : configs()) {
        INFO(to_string(c.arch));
        Stepper s = make_stepper(c);
        s.run_all();
        // Edits that reach the stages: a flipped mask cell and a switched-off head.
        const AttentionUse self = c.has_encoder() ? AttentionUse::encoder_self : AttentionUse::decoder_self;
        REQUIRE(s.set_mask_cell(self, 2, 1, false));
        REQUIRE(s.set_head_ablated(AttentionSite{self, 0}, 1, true));
        const std::map<std::string, Tensor> stored = fully_stored_trace(s);
        std::vector<std::string> order;
        for (const Step& step : s.steps()) order.push_back(step.path);
        std::mt19937 rng(3);
        for (int round = 0; round < 3; ++round) {  // last stage first, then the chain's inputs, then a shuffle
            if (round == 1) std::reverse(order.begin(), order.end());
            if (round == 2) std::shuffle(order.begin(), order.end(), rng);
            for (const std::string& path : order) {
                INFO(path);
                const Tensor* value = s.output(path);
                REQUIRE(value);
                CHECK(bit_equal(*value, stored.at(path)));
            }
        }
    }
}

TEST_CASE("stepping onto an on-demand stage holds it; stepping past its reader drops it", "[stepper][on_demand]") {
    Stepper s = make_stepper(small_config());
    const size_t masked = *s.find("encoder.layers.0.self_attn.masked");
    s.run_to(masked + 1);  // the cursor stands just past the masked stage: the step a teacher is looking at
    const int64_t held_at_masked = s.held_floats();
    CHECK(held_at_masked == floats_of_kept_steps(s) + s.output("encoder.layers.0.self_attn.masked")->numel());
    REQUIRE(s.step_forward());  // the softmax reads it, then it is dropped
    CHECK(s.held_floats() == floats_of_kept_steps(s));
    REQUIRE(s.step_back());
    CHECK(s.output("encoder.layers.0.self_attn.masked") != nullptr);  // recomputed for the view
}
