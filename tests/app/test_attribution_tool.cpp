// The Output view's "Why this output?" state (app/model/attribution_tool): the metric's defaults, the recompute on
// a new trace only, the head grid and the per-layer shares adding up to the metric, a head's per-position split.
#include "attribution_tool.h"
#include "session_support.h"

#include "analysis/token_ranking.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const Tensor& logits_of(const Session& s) {
    return *s.stepper().output(StepId::head(StepKind::logits, s.stepper().config()));
}

double sum_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

TEST_CASE("AttributionTool: the top prediction at the last position, split into grid and layers", "[attribution]") {
    Session s = test::english_korean();
    AttributionTool tool;
    REQUIRE(tool.update(s.stepper(), {}));
    REQUIRE(tool.ready());
    const Tensor& logits = logits_of(s);
    const int64_t last = logits.dim(0) - 1;
    CHECK(tool.metric().position == last);
    CHECK(tool.metric().token == rank_tokens(logits.row(last), 1).at(0).id);
    const HeadGrid& grid = tool.grid();
    const ModelConfig& config = s.stepper().config();
    REQUIRE(grid.rows.size() == static_cast<size_t>(2 * config.n_decoder_layers));  // self and cross per layer
    CHECK(grid.rows[1].use == AttentionUse::cross);
    CHECK(grid.heads == config.n_heads);
    const LayerShares& l = tool.layers();
    const double parts = sum_of(grid.total) + sum_of(l.ffn) + sum_of(l.attention_bias) + sum_of(l.norm_bias) +
                         l.embeddings + l.end_bias;
    CHECK(parts == Approx(tool.attribution().metric_value).margin(1e-4));
    CHECK(grid.max_abs > 0.0);
    const auto strongest = tool.strongest_head();
    REQUIRE(strongest);
    CHECK(std::fabs(grid.at(strongest->first, strongest->second)) == grid.max_abs);
}

TEST_CASE("AttributionTool: recomputes on a new trace or metric, not every frame", "[attribution]") {
    Session s = test::english_korean();
    AttributionTool tool;
    REQUIRE(tool.update(s.stepper(), {}));
    CHECK_FALSE(tool.update(s.stepper(), {}));
    AttributionChoice diff;
    diff.kind = AttributionMetricKind::logit_diff;
    REQUIRE(tool.update(s.stepper(), diff));
    const Tensor& logits = logits_of(s);
    const std::vector<TokenScore> top = rank_tokens(logits.row(logits.dim(0) - 1), 2);
    CHECK(tool.metric().token == top[0].id);
    CHECK(tool.metric().other == top[1].id);  // the runner-up
    CHECK(tool.attribution().metric_value >= 0.0);
    const double before = tool.attribution().metric_value;
    REQUIRE(s.toggle_head({AttentionUse::decoder_self, 0}, 0));
    REQUIRE(tool.update(s.stepper(), diff));
    CHECK(tool.grid().at(0, 0) == 0.0);  // switched off: it writes nothing
    CHECK(tool.attribution().metric_value != before);
}

TEST_CASE("AttributionTool: a head's shares per source position add up to its cell", "[attribution]") {
    Session s = test::english_korean();
    REQUIRE(s.set_tgt_text("나 는 사과"));
    AttributionTool tool;
    AttributionChoice choice;
    choice.position = 1;
    REQUIRE(tool.update(s.stepper(), choice));
    INFO(tool.error());
    REQUIRE(tool.ready());
    for (size_t r = 0; r < tool.grid().rows.size(); ++r) {
        const std::vector<double> split = tool.per_source(tool.grid().rows[r], 1);
        REQUIRE_FALSE(split.empty());
        CHECK(sum_of(split) == Approx(tool.grid().at(r, 1)).margin(1e-9));
    }
    // Causal self-attention at query 1 reads keys 0 and 1 only.
    CHECK(tool.per_source(tool.grid().rows[0], 0).size() == 2);
    const Result<ComponentTokens>& tokens = tool.tokens(s.stepper(), ComponentRef{false, tool.grid().rows[1], 2});
    REQUIRE(tokens);
    CHECK(tokens->up.size() == 5);
    CHECK(tokens->down.size() == 5);
    CHECK(tokens->up[0].value >= tokens->down[0].value);
}

TEST_CASE("AttributionTool: a position or token out of range is a one-line error", "[attribution]") {
    Session s = test::english_korean();
    AttributionTool tool;
    AttributionChoice choice;
    choice.position = 99;
    tool.update(s.stepper(), choice);
    CHECK_FALSE(tool.ready());
    CHECK(tool.error().find("position 99") != std::string::npos);
    choice.position = -1;
    choice.token = 100000;
    tool.update(s.stepper(), choice);
    CHECK_FALSE(tool.ready());
    CHECK(tool.error().find("100000") != std::string::npos);
}
