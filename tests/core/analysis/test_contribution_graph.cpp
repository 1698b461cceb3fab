// The contribution graph (core/analysis/contribution_graph): the shares against the PyTorch oracle of
// tests/golden/make_contribution_golden.py (fixtures/contribution.json: GPT-2, Llama, ours post-LN with
// cross-attention), the shares of every node summing to 1, and the route on a hand-built graph.
#include "../test_support.h"
#include "analysis/contribution_graph.h"
#include "analysis/head_split.h"
#include "hf/open_model.h"
#include "stepper.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

Stepper fixture_stepper(const std::string& fixture, std::vector<int> src, std::vector<int> tgt) {
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

// Σ of node (b, t)'s shares.
double node_sum(const ContributionShares& s, const FlowBlock& b, int64_t t) {
    double sum = b.residual[static_cast<size_t>(t)];
    if (b.kind == FlowBlockKind::ffn) return sum + b.sublayer_share[static_cast<size_t>(t)];
    const int64_t n = s.n_heads * b.n_keys;
    for (int64_t k = 0; k < n; ++k) sum += b.heads[static_cast<size_t>(t * n + k)];
    return sum;
}

// Two blocks over two positions, one head (stream order: an attention, an FFN); key 1 is masked for query 0.
ContributionShares hand_built() {
    ContributionShares s;
    s.n_positions = 2;
    s.n_heads = 1;
    FlowBlock attn;
    attn.kind = FlowBlockKind::attention;
    attn.n_keys = 2;
    attn.heads = {0.6, 0.1, 0.5, 0.2};  // (T, H, Tk)
    attn.writes = {1, 0, 1, 1};
    attn.residual = {0.3, 0.3};
    FlowBlock ffn;
    ffn.kind = FlowBlockKind::ffn;
    ffn.sublayer_share = {0.5, 0.7};
    ffn.residual = {0.5, 0.3};
    s.blocks = {attn, ffn};
    return s;
}

bool has_node(const FlowRoute& r, int block, int position) {
    return std::any_of(r.nodes.begin(), r.nodes.end(),
                       [&](const FlowNode& n) { return n.block == block && n.position == position; });
}

}  // namespace

TEST_CASE("contribution_shares: the LLM Transparency Tool's proximity shares, as PyTorch computes them",
          "[contribution_graph]") {
    std::ifstream in(kFixtures + "contribution.json");
    REQUIRE(in);
    const nlohmann::json cases = nlohmann::json::parse(in).at("cases");
    REQUIRE(cases.size() == 3);
    for (const nlohmann::json& c : cases) {
        INFO(c.at("case").get<std::string>());
        const Stepper stepper = fixture_stepper(c.at("fixture"), c.at("src_ids"), c.at("tgt_ids"));
        auto shares = contribution_shares(stepper, Stack::decoder);
        REQUIRE(shares);
        const nlohmann::json& blocks = c.at("blocks");
        REQUIRE(shares->blocks.size() == blocks.size());
        double worst = 0.0;
        for (size_t b = 0; b < blocks.size(); ++b) {
            const FlowBlock& got = shares->blocks[b];
            const nlohmann::json& want = blocks[b];
            CHECK(got.layer == want.at("layer").get<int>());
            CHECK((got.kind == FlowBlockKind::ffn) == (want.at("kind") == "ffn"));
            for (int64_t t = 0; t < shares->n_positions; ++t) {
                worst = std::max(worst, std::fabs(got.residual[t] - want.at("residual")[t].get<double>()));
                if (got.kind == FlowBlockKind::ffn) {
                    worst = std::max(worst, std::fabs(got.sublayer_share[t] - want.at("ffn")[t].get<double>()));
                    continue;
                }
                for (int h = 0; h < shares->n_heads; ++h)
                    for (int64_t j = 0; j < got.n_keys; ++j)
                        worst = std::max(worst, std::fabs(got.heads[(t * shares->n_heads + h) * got.n_keys + j] -
                                                          want.at("heads")[t][h][j].get<double>()));
            }
        }
        CHECK(worst < 1e-4);
        auto route = flow_route(*shares, c.at("token").get<int>(), c.at("threshold").get<double>());
        REQUIRE(route);
        std::vector<std::vector<int>> nodes;
        for (const FlowNode& n : route->nodes) nodes.push_back({n.block, n.position});
        std::sort(nodes.begin(), nodes.end());
        CHECK(nodes == c.at("route_nodes").get<std::vector<std::vector<int>>>());
    }
}

TEST_CASE("contribution_shares: Granite's FFN part is m·FFN, what its add writes into the stream",
          "[contribution_graph][granitemoe]") {
    // whole = r_in + m·f (m = 0.4): the part is whole − r_in, so its proximity ‖whole‖₁ − ‖−r_in + δ‖₁ and the
    // stream's ‖whole‖₁ − ‖−(whole − r_in) + δ‖₁ follow from the stream alone, not from m or the FFN's output.
    const Stepper stepper = fixture_stepper("hf_granitemoe", {}, {3, 17, 42, 8, 25});
    auto shares = contribution_shares(stepper, Stack::decoder);
    REQUIRE(shares);
    size_t b = 0, ffn_blocks = 0;
    double worst = 0.0;
    for (size_t i = 0; i < stepper.size(); ++i) {
        if (stepper.step(i).record.id.kind != StepKind::residual) continue;
        const FlowBlock& block = shares->blocks.at(b++);
        if (block.kind != FlowBlockKind::ffn) continue;
        ++ffn_blocks;
        const Tensor& r_in = *stepper.output(stepper.step(stepper.input_indices(i).at(0)).path);  // (T, C)
        const Tensor& whole = *stepper.output(stepper.step(i).path);                              // (T, C)
        for (int64_t t = 0; t < shares->n_positions; ++t) {
            const Eigen::RowVectorXd w = whole.row(t).cast<double>(), r = r_in.row(t).cast<double>();
            const double norm = w.lpNorm<1>();
            const double f = std::max(1e-5, norm - ((-r).array() + 1e-6).abs().sum());
            const double s = std::max(1e-5, norm - ((r - w).array() + 1e-6).abs().sum());
            worst = std::max(worst, std::fabs(block.sublayer_share[static_cast<size_t>(t)] - f / (f + s)));
        }
    }
    CHECK(b == shares->blocks.size());
    CHECK(ffn_blocks == 2);
    CHECK(worst < 1e-5);
}

TEST_CASE("contribution_shares: Granite's head parts are m·c[h, j], m as the stream received it",
          "[contribution_graph][granitemoe]") {
    // whole − r_in = m·Σ_{h,j} c[h, t, j] (no b_O): m read off the stream at each query, the shares recomputed from
    // the parts m·c and r_in.
    const Stepper stepper = fixture_stepper("hf_granitemoe", {}, {3, 17, 42, 8, 25});
    auto shares = contribution_shares(stepper, Stack::decoder);
    REQUIRE(shares);
    const auto proximity = [](const Eigen::RowVectorXd& part, const Eigen::RowVectorXd& w) {
        return std::max(1e-5, w.lpNorm<1>() - ((part - w).array() + 1e-6).abs().sum());
    };
    size_t b = 0, attention_blocks = 0;
    double worst = 0.0, worst_m = 0.0;
    for (size_t i = 0; i < stepper.size(); ++i) {
        if (stepper.step(i).record.id.kind != StepKind::residual) continue;
        const FlowBlock& block = shares->blocks.at(b++);
        if (block.kind != FlowBlockKind::attention) continue;
        ++attention_blocks;
        auto split = head_split(stepper, stepper.step(stepper.input_indices(i).at(1)).record.id.site());
        REQUIRE(split);
        const HeadSplit& hs = *split;
        const Tensor& r_in = *stepper.output(stepper.step(stepper.input_indices(i).at(0)).path);  // (T, C)
        const Tensor& whole = *stepper.output(stepper.step(i).path);                              // (T, C)
        for (int64_t t = 0; t < hs.Tq; ++t) {
            const Eigen::RowVectorXd w = whole.row(t).cast<double>(), r = r_in.row(t).cast<double>();
            std::vector<Eigen::RowVectorXd> parts;  // c[h, t, j], (H·Tk) of (C,)
            Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(w.size());
            for (int64_t h = 0; h < hs.H; ++h) {
                const auto p = hs.source_outputs(h);  // (Tk, C)
                for (int64_t j = 0; j < hs.Tk; ++j) parts.push_back(hs.weight(h, t, j) * p.row(j));
            }
            for (const auto& c : parts) sum += c;
            const double m = (w - r).dot(sum) / sum.squaredNorm();
            worst_m = std::max(worst_m, std::fabs(m - 0.4));
            std::vector<double> prox;
            double total = proximity(r, w);
            for (const auto& c : parts) total += prox.emplace_back(proximity(m * c, w));
            for (size_t k = 0; k < prox.size(); ++k)
                worst =
                    std::max(worst, std::fabs(block.heads[static_cast<size_t>(t) * prox.size() + k] - prox[k] / total));
        }
    }
    CHECK(attention_blocks == 2);
    CHECK(worst_m < 1e-4);
    CHECK(worst < 1e-5);
}

TEST_CASE("contribution_shares: every node's shares sum to 1, in both stacks and through cross-attention",
          "[contribution_graph]") {
    const Stepper stepper = [] {
        Stepper s = test::make_stepper(test::small_config());
        s.run_all();
        return s;
    }();
    for (Stack stack : {Stack::encoder, Stack::decoder}) {
        auto shares = contribution_shares(stepper, stack);
        REQUIRE(shares);
        REQUIRE(shares->blocks.size() == (stack == Stack::encoder ? 4u : 6u));
        for (const FlowBlock& b : shares->blocks)
            for (int64_t t = 0; t < shares->n_positions; ++t)
                CHECK(node_sum(*shares, b, t) == Approx(1.0).margin(1e-12));
    }
    auto decoder = contribution_shares(stepper, Stack::decoder);
    REQUIRE(decoder);
    CHECK(decoder->blocks[1].use == AttentionUse::cross);
    CHECK(decoder->blocks[1].n_keys == 5);  // the source's positions
    auto route = flow_route(*decoder, 3, 0.0);
    REQUIRE(route);
    const auto cross = std::count_if(route->edges.begin(), route->edges.end(),
                                     [](const FlowEdge& e) { return e.kind == FlowEdgeKind::cross_attention; });
    CHECK(cross > 0);
    for (const FlowNode& n : route->nodes) CHECK(n.position <= 3);  // causal: nothing after the token
}

TEST_CASE("flow_route: the kept parts renormalised, followed back from the token", "[contribution_graph]") {
    const ContributionShares s = hand_built();
    SECTION("threshold 0.25 drops key 1's 0.2 and renormalises the rest") {
        auto r = flow_route(s, 1, 0.25);
        REQUIRE(r);
        REQUIRE(r->edges.size() == 4);
        CHECK(r->nodes.size() == 4);
        CHECK(has_node(*r, -1, 0));
        CHECK(has_node(*r, -1, 1));
        for (const FlowEdge& e : r->edges) {
            if (e.block == 1) CHECK(e.share == Approx(e.kind == FlowEdgeKind::ffn ? 0.7 : 0.3));
            if (e.block == 0 && e.kind == FlowEdgeKind::attention) {
                CHECK(e.from == 0);
                CHECK(e.share == Approx(0.5 / 0.8));
            }
            if (e.block == 0 && e.kind == FlowEdgeKind::residual) CHECK(e.share == Approx(0.3 / 0.8));
        }
    }
    SECTION("threshold 0 keeps every part that writes: a masked key is no edge") {
        auto from1 = flow_route(s, 1, 0.0);
        REQUIRE(from1);
        CHECK(from1->edges.size() == 5);
        auto from0 = flow_route(s, 0, 0.0);
        REQUIRE(from0);
        CHECK(from0->edges.size() == 4);  // FFN, residual, key 0, residual: not the masked key 1
        CHECK(!has_node(*from0, -1, 1));
    }
    SECTION("threshold 1 keeps nothing: the route is the token's node alone") {
        auto r = flow_route(s, 1, 1.0);
        REQUIRE(r);
        CHECK(r->edges.empty());
        REQUIRE(r->nodes.size() == 1);
        CHECK((r->nodes[0].block == 1 && r->nodes[0].position == 1));
    }
    SECTION("one-line errors") {
        auto past = flow_route(s, 2, 0.1);
        REQUIRE(!past);
        CHECK(past.error().message.find("past the end") != std::string::npos);
        CHECK(!flow_route(s, 0, 1.5));
        CHECK(!flow_route(s, -1, 0.1));
    }
}
