// The Residual view's contribution graph state (app/model/contribution_tool): the route from the last token by
// default, recomputed on a new trace or choice only, lines summed over heads, one-line errors.
#include "contribution_tool.h"
#include "session_support.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("ContributionTool: the last token's route over the decoder, lines summed over heads",
          "[contribution_graph]") {
    Session s = test::english_korean();
    ContributionTool tool;
    REQUIRE(tool.update(s.stepper(), {}));
    INFO(tool.error());
    REQUIRE(tool.ready());
    const ContributionShares& shares = tool.shares();
    CHECK(shares.stack == Stack::decoder);
    CHECK(tool.route().token == shares.n_positions - 1);
    CHECK(shares.blocks.size() == static_cast<size_t>(3 * s.stepper().config().n_decoder_layers));
    REQUIRE_FALSE(tool.lines().empty());
    double edge_sum = 0.0, line_sum = 0.0;
    for (const FlowEdge& e : tool.route().edges) edge_sum += e.share;
    for (const FlowLine& l : tool.lines()) {
        line_sum += l.share;
        CHECK(l.share > 0.0);
        if (l.kind == FlowEdgeKind::attention || l.kind == FlowEdgeKind::cross_attention) {
            CHECK(l.top_head >= 0);
            CHECK(l.top_share <= l.share + 1e-12);
        } else {
            CHECK(l.top_head == -1);
        }
    }
    CHECK(line_sum == Approx(edge_sum));
    CHECK(tool.lines().size() <= tool.route().edges.size());
}

TEST_CASE("ContributionTool: recomputes on a new trace, token or threshold, not every frame", "[contribution_graph]") {
    Session s = test::english_korean();
    ContributionTool tool;
    REQUIRE(tool.update(s.stepper(), {}));
    CHECK_FALSE(tool.update(s.stepper(), {}));
    ContributionChoice all{0, 0.0};
    REQUIRE(tool.update(s.stepper(), all));
    CHECK(tool.route().token == 0);
    const size_t edges = tool.route().edges.size();
    ContributionChoice none{0, 1.0};
    REQUIRE(tool.update(s.stepper(), none));
    CHECK(tool.route().edges.empty());
    CHECK(edges > 0);
    const double before = tool.shares().blocks[0].residual[0];
    REQUIRE(s.toggle_head({AttentionUse::decoder_self, 0}, 0));
    REQUIRE(tool.update(s.stepper(), none));
    CHECK(tool.shares().blocks[0].residual[0] != before);  // head 0 off: the stream's own share grows
}

TEST_CASE("ContributionTool: a token past the end is a one-line error", "[contribution_graph]") {
    Session s = test::english_korean();
    ContributionTool tool;
    tool.update(s.stepper(), {99, 0.04});
    CHECK_FALSE(tool.ready());
    CHECK(tool.error().find("position 99") != std::string::npos);
    tool.update(s.stepper(), {});
    CHECK(tool.ready());
}
