// Attention knockout (core/analysis/attention_knockout) against the PyTorch oracle of
// tests/golden/make_knockout_golden.py (fixtures/knockout.json: GPT-2 and our post-LN family, every attention);
// a knockout of an edge whose weight is exactly 0 changing nothing, bit for bit; the stepper unchanged after; the
// grid equal to single knockouts; a mask edit being the same block (weight 0, the row renormalised); the errors.
#include "analysis/attention_knockout.h"
#include "hf/open_model.h"
#include "stepper.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

Stepper run_fixture(const std::string& fixture, std::vector<int> src, std::vector<int> tgt) {
    auto loaded =
        open_model(fixture.rfind("hf_", 0) == 0 ? kFixtures + fixture : kFixtures + fixture + ".model.safetensors");
    REQUIRE(loaded);
    ForwardInputs inputs;
    inputs.src_ids = std::move(src);
    inputs.tgt_ids = std::move(tgt);
    auto stepper = Stepper::create(loaded->model.config, loaded->model.weights, inputs);
    REQUIRE(stepper);
    stepper->run_all();
    return std::move(*stepper);
}

Stepper gpt2() { return run_fixture("hf_gpt2", {}, {49, 7, 23, 0, 41, 12, 12, 30, 5}); }

const AttributionMetric kMetric{AttributionMetricKind::logit_diff, 7, 23, 8};

bool close(double got, double want) { return std::fabs(got - want) <= 1e-4 + 1e-4 * std::fabs(want); }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every kept output's version and numbers.
struct Snapshot {
    std::vector<uint64_t> versions;
    std::vector<std::vector<float>> values;
};
Snapshot snapshot(const Stepper& s) {
    Snapshot out;
    for (size_t i = 0; i < s.size(); ++i) {
        const TraceEntry* e = s.run_facts(s.step(i).path);
        out.versions.push_back(e ? e->version : 0);
        out.values.emplace_back(e && !e->value.empty() ? std::vector<float>(e->value.data.begin(), e->value.data.end())
                                                       : std::vector<float>{});
    }
    return out;
}

}  // namespace

TEST_CASE("knockout: one edge and whole grids match PyTorch within 1e-4", "[knockout]") {
    std::ifstream in(kFixtures + "knockout.json");
    REQUIRE(in);
    const nlohmann::json cases = nlohmann::json::parse(in).at("cases");
    REQUIRE(cases.size() == 8);
    for (const nlohmann::json& c : cases) {
        INFO(c.at("case").get<std::string>());
        Stepper s = run_fixture(c.at("fixture"), c.at("src_ids"), c.at("tgt_ids"));
        auto metric = AttributionMetric::parse(c.at("metric"));
        auto use = parse_attention_use(c.at("attention"));
        REQUIRE(metric);
        REQUIRE(use);
        const KnockoutSite site{*use, c.at("layer").get<int>(), c.at("head").get<int>()};
        if (c.contains("edge")) {
            auto r = knockout_edge(s, site, c.at("edge")[0], c.at("edge")[1], *metric);
            REQUIRE(r);
            CHECK(close(r->before, c.at("before")));
            CHECK(close(r->after, c.at("after")));
            CHECK(!close(r->after, r->before));  // the case knocks out an edge that matters
            continue;
        }
        auto g = knockout_grid(s, site, *metric);
        REQUIRE(g);
        const nlohmann::json& want = c.at("grid");
        REQUIRE(g->rows == static_cast<int64_t>(want.size()));
        REQUIRE(g->cols == static_cast<int64_t>(want[0].size()));
        int changed = 0;
        for (int64_t q = 0; q < g->rows; ++q)
            for (int64_t k = 0; k < g->cols; ++k) {
                const nlohmann::json& w = want[static_cast<size_t>(q)][static_cast<size_t>(k)];
                INFO("edge " << q << " -> " << k);
                if (w.is_null()) {
                    CHECK(std::isnan(g->at(q, k)));
                    continue;
                }
                CHECK(std::fabs(g->at(q, k) - w.get<double>()) <=
                      1e-4 + 1e-4 * std::fabs(c.at("before").get<double>()));
                changed += g->at(q, k) != 0.0;
            }
        CHECK(changed > 0);
    }
}

TEST_CASE("knockout: an edge whose weight is exactly 0 changes nothing, bit for bit", "[knockout]") {
    Stepper s = gpt2();
    // Key 6 is after query 2: the causal mask gives it weight 0. The knockout still runs its patch.
    const Tensor* w = s.output(StepId::attention_at({AttentionUse::decoder_self, 0}, AttentionStage::weights));
    REQUIRE(w->data[static_cast<size_t>(2 * 9 + 6)] == 0.0f);
    for (int head : {-1, 1}) {
        auto r = knockout_edge(s, {AttentionUse::decoder_self, 0, head}, 2, 6, kMetric);
        REQUIRE(r);
        CHECK(r->already_masked);
        CHECK(same_bits(r->after, r->before));
    }
    auto free_edge = knockout_edge(s, {AttentionUse::decoder_self, 0, -1}, 8, 6, kMetric);
    REQUIRE(free_edge);
    CHECK_FALSE(free_edge->already_masked);
    CHECK(free_edge->change() != 0.0);
}

TEST_CASE("knockout: the stepper ends as it began", "[knockout]") {
    Stepper s = gpt2();
    const Snapshot before = snapshot(s);
    auto r = knockout_edge(s, {AttentionUse::decoder_self, 1, 2}, 8, 3, kMetric);
    REQUIRE(r);
    CHECK(r->change() != 0.0);
    auto g = knockout_grid(s, {AttentionUse::decoder_self, 0, -1}, kMetric);
    REQUIRE(g);
    const Snapshot after = snapshot(s);
    CHECK(after.versions == before.versions);
    CHECK(after.values == before.values);
}

TEST_CASE("knockout: the grid equals single knockouts, bit for bit", "[knockout]") {
    Stepper s = gpt2();
    for (int head : {-1, 0}) {
        const KnockoutSite site{AttentionUse::decoder_self, 1, head};
        int64_t calls = 0, last_total = 0;
        auto g = knockout_grid(s, site, kMetric, [&](int64_t done, int64_t total) {
            calls = done;
            last_total = total;
            return true;
        });
        REQUIRE(g);
        CHECK(calls == 45);  // 9 · 10 / 2 edges the causal mask lets through
        CHECK(last_total == 45);
        for (int64_t q = 0; q < 9; ++q)
            for (int64_t k = 0; k < 9; ++k) {
                INFO("head " << head << " edge " << q << " -> " << k);
                if (k > q) {
                    CHECK(std::isnan(g->at(q, k)));
                    continue;
                }
                auto one = knockout_edge(s, site, q, k, kMetric);
                REQUIRE(one);
                CHECK(same_bits(g->at(q, k), one->change()));
            }
    }
}

TEST_CASE("knockout: a progress that says stop ends the grid there, the stepper as it began", "[knockout]") {
    Stepper s = gpt2();
    const Snapshot before = snapshot(s);
    int64_t calls = 0;
    auto g = knockout_grid(s, {AttentionUse::decoder_self, 1, -1}, kMetric, [&](int64_t done, int64_t) {
        calls = done;
        return done < 3;
    });
    REQUIRE_FALSE(g);
    CHECK(g.error().message == kGridStopped);
    CHECK(calls == 3);
    const Snapshot after = snapshot(s);
    CHECK(after.versions == before.versions);
    CHECK(after.values == before.values);
}

TEST_CASE("knockout: a mask cell is the same block: weight 0 and the query's row renormalised", "[knockout]") {
    Stepper s = gpt2();
    const StepId weights = StepId::attention_at({AttentionUse::decoder_self, 0}, AttentionStage::weights);
    const Tensor w = *s.output(weights);  // (H, 9, 9)
    REQUIRE(s.set_mask_cell(AttentionUse::decoder_self, 5, 2, false));
    const Tensor& m = *s.output(weights);
    for (int64_t h = 0; h < 4; ++h) {
        const float* old = w.data.data() + (h * 9 + 5) * 9;
        const float* now = m.data.data() + (h * 9 + 5) * 9;
        CHECK(now[2] == 0.0f);
        for (int64_t j = 0; j <= 5; ++j)
            if (j != 2) CHECK(now[j] == Approx(old[j] / (1.0 - old[2])).epsilon(1e-5));
    }
}

TEST_CASE("knockout: one-line errors for edges, layers, heads and attentions the model lacks", "[knockout]") {
    Stepper s = gpt2();
    auto message = [&](const KnockoutSite& site, int64_t q, int64_t k) {
        auto r = knockout_edge(s, site, q, k, kMetric);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find('\n') == std::string::npos);
        return r.error().message;
    };
    const KnockoutSite ok{AttentionUse::decoder_self, 1, -1};
    CHECK(message(ok, 9, 0) == "query 9 is past the end: the attention has 9 queries (0 to 8)");
    CHECK(message(ok, 3, -1) == "key -1 is past the end: the attention has 9 keys (0 to 8)");
    CHECK(message({AttentionUse::decoder_self, 2, -1}, 0, 0) ==
          "layer 2 is outside 0..1 of the decoder self-attention");
    CHECK(message({AttentionUse::decoder_self, 0, 4}, 0, 0) == "head 4 is outside 0..3 (or -1 for every head)");
    CHECK(message({AttentionUse::cross, 0, -1}, 0, 0) == "this model has no cross-attention");
    CHECK(message({AttentionUse::encoder_self, 0, -1}, 0, 0) == "this model has no encoder self-attention");
    auto grid = knockout_grid(s, {AttentionUse::cross, 0, -1}, kMetric);
    REQUIRE_FALSE(grid);
    CHECK_FALSE(parse_attention_use("self"));
}
