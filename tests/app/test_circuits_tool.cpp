// The circuits tool without a window: its matrix and rankings are core's head circuits, its tokens the typed ones
// (each once, an unknown one named) or the sentence's, and it recomputes on a change of the weights or the choice,
// not every frame.
#include "circuits_tool.h"
#include "param_names.h"
#include "session_support.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

CircuitChoice encoder_head(int layer, int head) {
    CircuitChoice c;
    c.encoder = true;
    c.layer = layer;
    c.head = head;
    return c;
}

void check_same(const std::vector<TokenScore>& got, const std::vector<TokenScore>& want) {
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].id == want[i].id);
        CHECK(got[i].value == want[i].value);
    }
}

}  // namespace

TEST_CASE("CircuitsTool: the matrix and the rankings are core's head circuits", "[circuits_tool]") {
    Session session = test::english_korean();
    const Stepper& s = session.stepper();
    CircuitsTool tool;
    REQUIRE(tool.update(s, session.model(), encoder_head(1, 2)));
    const HeadRef head{Stack::encoder, 1, 2};
    CHECK(tool.ids() == s.inputs().src_ids);  // nothing typed: the sentence's tokens
    REQUIRE(tool.matrix());
    const auto qk = qk_circuit(s.config(), s.weights(), head, tool.ids(), tool.ids());
    REQUIRE(qk);
    CHECK(*tool.matrix() == *qk);
    const int V = static_cast<int>(session.model().src_vocab->size());
    const int id = tool.ids()[1];
    const auto scores = qk_circuit(s.config(), s.weights(), head, {id}, every_token(V));
    REQUIRE(scores);
    const CircuitRanking& ranked = tool.ranking(s, 1);
    check_same(ranked.top, rank_tokens(scores->row(0), CircuitsTool::kRanked));
    CHECK(ranked.bottom.empty());

    // OV reads through the output head: a decoder head.
    CircuitChoice ov;
    ov.ov = true;
    ov.layer = 1;
    ov.head = 3;
    REQUIRE(tool.update(s, session.model(), ov));
    const HeadRef dec{Stack::decoder, 1, 3};
    const auto logits = ov_circuit(s.config(), s.weights(), dec, {tool.ids()[0]});
    REQUIRE(logits);
    const CircuitRanking& raised = tool.ranking(s, 0);
    check_same(raised.top, rank_tokens(logits->row(0), CircuitsTool::kRanked));
    check_same(raised.bottom, rank_tokens(logits->row(0), CircuitsTool::kRanked, false));
    REQUIRE(tool.matrix());
    CHECK((*tool.matrix())(0, 0) == (*logits)(0, tool.ids()[0]));

    // An encoder head has no OV circuit here: one line says why.
    ov.encoder = true;
    REQUIRE(tool.update(s, session.model(), ov));
    REQUIRE_FALSE(tool.matrix());
    CHECK(tool.matrix().error().message.find('\n') == std::string::npos);
}

TEST_CASE("CircuitsTool: typed tokens each once, an unknown one named", "[circuits_tool]") {
    Session session = test::english_korean();
    CircuitsTool tool;
    CircuitChoice c = encoder_head(0, 0);
    c.tokens = "red i red zebra apples";
    REQUIRE(tool.update(session.stepper(), session.model(), c));
    const Vocab& v = *session.model().src_vocab;
    CHECK(tool.ids() == std::vector<int>{*v.find("red"), *v.find("i"), *v.find("apples")});
    CHECK(tool.unknown() == "zebra");
    CHECK(tool.row_labels() == std::vector<std::string>{"red", "i", "apples"});
    CHECK(tool.col_labels() == tool.row_labels());  // QK's columns are keys of the same stack
}

TEST_CASE("CircuitsTool: recomputes on new weights or a new choice, not every frame", "[circuits_tool]") {
    Session session = test::english_korean();
    CircuitsTool tool;
    CircuitChoice c = encoder_head(1, 0);
    REQUIRE(tool.update(session.stepper(), session.model(), c));
    const uint64_t version = tool.version();
    CHECK_FALSE(tool.update(session.stepper(), session.model(), c));
    c.focus = 2;  // the ranked row is not the matrix's
    CHECK_FALSE(tool.update(session.stepper(), session.model(), c));
    CHECK(tool.version() == version);
    c.head = 1;
    CHECK(tool.update(session.stepper(), session.model(), c));
    CHECK_FALSE(tool.update(session.stepper(), session.model(), c));
    const Mat before = *tool.matrix();
    const ModelConfig& config = session.stepper().config();
    const LinearParams q = layer_params(config, Stack::encoder, 1).self_attn.q;
    REQUIRE(q.layout == WeightLayout::out_in);
    REQUIRE(session.set_weight(q.weight, (q.out_begin + config.d_head()) * q.n_in, 3.0f));  // W_Q's first row for head 1
    CHECK(tool.update(session.stepper(), session.model(), c));
    CHECK_FALSE(*tool.matrix() == before);
}
