// Beam search against hand-made scorers: tables of next-token probabilities keyed by prefix,
// and small pseudo-random models checked against greedy decoding and brute force.
#include "beam_search.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <utility>

using namespace attnlab;

namespace {

// Vocabulary of the table models: 0 = <pad>, 1 = <sos>, 2 = <eos>, 3 = a, 4 = b.
constexpr int kSos = 1, kEos = 2, kA = 3, kB = 4;
constexpr int kV = 5;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// lp(Y) = ((5 + |Y|) / 6)^α
double gnmt_lp(size_t n_tokens, double alpha) { return std::pow((5.0 + static_cast<double>(n_tokens)) / 6.0, alpha); }

// log p as the scorer hands it over (a float), widened as beam search sums it.
double flog(double p) { return static_cast<double>(static_cast<float>(std::log(p))); }

// One row of next-token probabilities; tokens not listed are impossible (log-prob -inf).
std::vector<double> probs(std::initializer_list<std::pair<int, double>> entries) {
    std::vector<double> row(kV, 0.0);
    for (const auto& [token, p] : entries) row[static_cast<size_t>(token)] = p;
    return row;
}

// A model given as a table: prefix (starting with <sos>) -> next-token probabilities.
// Records every call, so tests can check what beam search asked for.
struct TableModel {
    std::map<std::vector<int>, std::vector<double>> next;
    std::vector<std::vector<std::vector<int>>> calls;

    Mat operator()(const std::vector<std::vector<int>>& prefixes) {
        calls.push_back(prefixes);
        Mat out(static_cast<Eigen::Index>(prefixes.size()), kV);  // (n, V)
        for (size_t i = 0; i < prefixes.size(); ++i) {
            const auto it = next.find(prefixes[i]);
            if (it == next.end()) throw std::runtime_error("beam search asked for a prefix that is not in the table");
            for (int v = 0; v < kV; ++v) {
                const double p = it->second[static_cast<size_t>(v)];
                out(static_cast<Eigen::Index>(i), v) = p > 0.0 ? static_cast<float>(std::log(p)) : kNegInf;
            }
        }
        return out;
    }
    NextLogProbs scorer() {
        return [this](const std::vector<std::vector<int>>& prefixes) { return (*this)(prefixes); };
    }
};

// Greedy wins the first step with a, but a's continuations are weak:
//   P(a a <eos>) = 0.6 · 0.45 · 1 = 0.27   (greedy's answer)
//   P(a <eos>)   = 0.6 · 0.30     = 0.18
//   P(a b <eos>) = 0.6 · 0.25 · 1 = 0.15
//   P(b <eos>)   = 0.4 · 0.90     = 0.36   (the most probable sequence)
//   P(b a ...)   = 0.4 · 0.10, never reached
TableModel greedy_trap_model() {
    TableModel m;
    m.next[{kSos}] = probs({{kA, 0.6}, {kB, 0.4}});
    m.next[{kSos, kA}] = probs({{kA, 0.45}, {kEos, 0.30}, {kB, 0.25}});
    m.next[{kSos, kB}] = probs({{kEos, 0.9}, {kA, 0.1}});
    m.next[{kSos, kA, kA}] = probs({{kEos, 1.0}});
    m.next[{kSos, kA, kB}] = probs({{kEos, 1.0}});
    return m;
}

// A deterministic pseudo-random model: the next-token distribution is log_softmax of logits
// uniform in [-2, 2) drawn from a generator seeded by (seed, prefix), plus eos_bias on <eos>.
struct RandomModel {
    uint32_t seed;
    int vocab;
    float eos_bias;

    Mat operator()(const std::vector<std::vector<int>>& prefixes) const {
        Mat out(static_cast<Eigen::Index>(prefixes.size()), vocab);  // (n, V)
        for (size_t i = 0; i < prefixes.size(); ++i) {
            std::vector<uint32_t> key{seed};
            for (int t : prefixes[i]) key.push_back(static_cast<uint32_t>(t));
            std::seed_seq seq(key.begin(), key.end());
            std::mt19937 rng(seq);
            auto row = out.row(static_cast<Eigen::Index>(i));
            for (int v = 0; v < vocab; ++v) row(v) = static_cast<float>(rng()) * (4.0f / 4294967296.0f) - 2.0f;
            row(kEos) += eos_bias;
            // log_softmax(x) = x - max - log Σ exp(x - max)
            const float mx = row.maxCoeff();
            const float log_sum = std::log((row.array() - mx).exp().sum());
            row.array() -= mx + log_sum;
        }
        return out;
    }
};

// The plain greedy loop: append the argmax (first maximum) until <eos> or max_new_tokens.
BeamHypothesis greedy_loop(const NextLogProbs& next_log_probs, const BeamOptions& o) {
    BeamHypothesis h;
    std::vector<int> prefix{o.sos_id};
    while (static_cast<int>(h.tokens.size()) < o.max_new_tokens) {
        const Mat lp = next_log_probs({prefix});  // (1, V)
        int best = 0;
        for (int v = 1; v < lp.cols(); ++v)
            if (lp(0, v) > lp(0, best)) best = v;
        h.log_prob += static_cast<double>(lp(0, best));
        h.tokens.push_back(best);
        prefix.push_back(best);
        if (best == o.eos_id) break;
    }
    h.score = h.log_prob / gnmt_lp(h.tokens.size(), o.length_penalty);
    return h;
}

}  // namespace

TEST_CASE("beam search finds the more probable sequence that greedy misses", "[beam]") {
    TableModel m = greedy_trap_model();
    BeamOptions o;  // α = 0.6
    o.beam_size = 2;
    const std::vector<BeamHypothesis> beam = beam_search(m.scorer(), o);

    // Step 1: live a (0.6), b (0.4).
    // Step 2 ranks: b<eos> 0.36 (1st: finished), a a 0.27 (live), a<eos> 0.18 (3rd: outside the top 2,
    //   so not finished), a b 0.15 (live).
    // Step 3: a a<eos> 0.27 and a b<eos> 0.15 finish -> 3 finished ≥ beam 2, stop.
    // Scores, lp(2) = (7/6)^0.6 = 1.096903, lp(3) = (8/6)^0.6 = 1.188402:
    //   b <eos>:   ln 0.36 / lp(2) = -1.021651 / 1.096903 = -0.931396   <- best
    //   a a <eos>: ln 0.27 / lp(3) = -1.309333 / 1.188402 = -1.101760
    //   a b <eos>: ln 0.15 / lp(3) = -1.897120 / 1.188402 = -1.596363   (cut: beam keeps 2)
    // (Finishing a<eos> at step 2 would have stopped there with a<eos>, ln 0.18 / lp(2) = -1.563294, 2nd.)
    REQUIRE(beam.size() == 2);
    CHECK(beam[0].tokens == std::vector<int>{kB, kEos});
    CHECK(beam[0].log_prob == Approx(flog(0.4) + flog(0.9)).margin(1e-12));
    CHECK(beam[0].log_prob == Approx(std::log(0.36)).margin(1e-6));
    CHECK(beam[0].score == Approx(-0.931396).margin(1e-5));
    CHECK(beam[1].tokens == std::vector<int>{kA, kA, kEos});
    CHECK(beam[1].log_prob == Approx(std::log(0.27)).margin(1e-6));
    CHECK(beam[1].score == Approx(-1.101760).margin(1e-5));

    // Greedy (beam 1) takes a, then a, then <eos>: P = 0.27, the worse answer.
    TableModel g = greedy_trap_model();
    o.beam_size = 1;
    const std::vector<BeamHypothesis> greedy = beam_search(g.scorer(), o);
    REQUIRE(greedy.size() == 1);
    CHECK(greedy[0].tokens == std::vector<int>{kA, kA, kEos});
    CHECK(greedy[0].log_prob == Approx(std::log(0.27)).margin(1e-6));
    CHECK(greedy[0].log_prob < beam[0].log_prob);
}

TEST_CASE("beam_size 1 is exactly the greedy loop", "[beam]") {
    int n_cut = 0, n_eos = 0;  // the seeds must cover both endings
    for (uint32_t seed = 0; seed < 60; ++seed)
        for (double alpha : {0.0, 0.6, 1.5}) {
            const RandomModel model{seed, 7, -0.8f};
            BeamOptions o;
            o.beam_size = 1;
            o.length_penalty = static_cast<float>(alpha);
            o.max_new_tokens = 6;
            const BeamHypothesis g = greedy_loop(model, o);
            const std::vector<BeamHypothesis> b = beam_search(model, o);
            REQUIRE(b.size() == 1);
            CHECK(b[0].tokens == g.tokens);
            CHECK(b[0].log_prob == g.log_prob);  // same terms summed in the same order
            CHECK(b[0].score == Approx(g.score).epsilon(1e-12));
            (g.tokens.back() == kEos ? n_eos : n_cut)++;
        }
    CHECK(n_eos > 0);
    CHECK(n_cut > 0);
}

TEST_CASE("the length penalty turns a short winner into a long one", "[beam]") {
    // <sos> -> a 0.52 | b 0.48; after a: <eos> for sure; after b: b, b, then <eos> for sure.
    //   short = a <eos>:      log P = ln 0.52 = -0.653926, |Y| = 2
    //   long  = b b b <eos>:  log P = ln 0.48 = -0.733969, |Y| = 4
    // Beam 2: step 1 lives a, b; step 2 finishes a<eos>, keeps b b; step 3 keeps b b b;
    // step 4 finishes b b b<eos> -> 2 finished, stop.
    const auto model = [] {
        TableModel m;
        m.next[{kSos}] = probs({{kA, 0.52}, {kB, 0.48}});
        m.next[{kSos, kA}] = probs({{kEos, 1.0}});
        m.next[{kSos, kB}] = probs({{kB, 1.0}});
        m.next[{kSos, kB, kB}] = probs({{kB, 1.0}});
        m.next[{kSos, kB, kB, kB}] = probs({{kEos, 1.0}});
        return m;
    };
    const std::vector<int> short_y{kA, kEos}, long_y{kB, kB, kB, kEos};
    BeamOptions o;
    o.beam_size = 2;

    SECTION("α = 0: the score is log P, short wins (-0.653926 > -0.733969)") {
        TableModel m = model();
        o.length_penalty = 0.0f;
        const std::vector<BeamHypothesis> b = beam_search(m.scorer(), o);
        REQUIRE(b.size() == 2);
        CHECK(b[0].tokens == short_y);
        CHECK(b[0].score == Approx(-0.653926).margin(1e-5));
        CHECK(b[1].tokens == long_y);
        CHECK(b[1].score == Approx(-0.733969).margin(1e-5));
    }
    SECTION("α = 0.6: lp(2) = 1.096903, lp(4) = 1.275425; long wins (-0.575470 > -0.596157)") {
        TableModel m = model();
        o.length_penalty = 0.6f;
        const std::vector<BeamHypothesis> b = beam_search(m.scorer(), o);
        REQUIRE(b.size() == 2);
        CHECK(b[0].tokens == long_y);
        CHECK(b[0].log_prob == Approx(std::log(0.48)).margin(1e-6));
        CHECK(b[0].score == Approx(-0.575470).margin(1e-5));
        CHECK(b[1].tokens == short_y);
        CHECK(b[1].score == Approx(-0.596157).margin(1e-5));
        CHECK(m.calls.size() == 4);
    }
}

TEST_CASE("max_new_tokens cuts a model that never says <eos>", "[beam]") {
    // Every prefix: a 0.7, b 0.3, <eos> impossible.
    int n_calls = 0;
    const NextLogProbs endless = [&n_calls](const std::vector<std::vector<int>>& prefixes) {
        ++n_calls;
        Mat out = Mat::Constant(static_cast<Eigen::Index>(prefixes.size()), kV, kNegInf);  // (n, V)
        out.col(kA).setConstant(std::log(0.7f));
        out.col(kB).setConstant(std::log(0.3f));
        return out;
    };
    BeamOptions o;
    o.beam_size = 3;
    o.max_new_tokens = 5;
    const std::vector<BeamHypothesis> b = beam_search(endless, o);

    CHECK(n_calls == 5);
    REQUIRE(b.size() == 3);
    for (const BeamHypothesis& h : b) {
        CHECK(h.tokens.size() == 5);
        CHECK(std::find(h.tokens.begin(), h.tokens.end(), kEos) == h.tokens.end());
        CHECK(h.score == Approx(h.log_prob / gnmt_lp(5, o.length_penalty)).epsilon(1e-12));
    }
    // Best: a a a a a, P = 0.7^5 = 0.16807. Next two: one b among four a's, P = 0.7^4 · 0.3 = 0.07203.
    CHECK(b[0].tokens == std::vector<int>{kA, kA, kA, kA, kA});
    CHECK(b[0].log_prob == Approx(5 * std::log(0.7)).margin(1e-6));
    for (size_t i = 1; i < 3; ++i) {
        CHECK(std::count(b[i].tokens.begin(), b[i].tokens.end(), kB) == 1);
        CHECK(b[i].log_prob == Approx(4 * std::log(0.7) + std::log(0.3)).margin(1e-6));
    }
}

TEST_CASE("next_log_probs is called once per step with every live prefix", "[beam]") {
    using Prefixes = std::vector<std::vector<int>>;
    SECTION("beam 2 on the greedy-trap table") {
        TableModel m = greedy_trap_model();
        BeamOptions o;
        o.beam_size = 2;
        (void)beam_search(m.scorer(), o);
        // Live prefixes in rank order: a before b; then a a (0.27) before a b (0.15), b<eos> having finished.
        REQUIRE(m.calls.size() == 3);
        CHECK(m.calls[0] == Prefixes{{kSos}});
        CHECK(m.calls[1] == Prefixes{{kSos, kA}, {kSos, kB}});
        CHECK(m.calls[2] == Prefixes{{kSos, kA, kA}, {kSos, kA, kB}});
    }
    SECTION("beam 1 asks only for greedy's prefixes") {
        TableModel m = greedy_trap_model();
        BeamOptions o;
        o.beam_size = 1;
        (void)beam_search(m.scorer(), o);
        REQUIRE(m.calls.size() == 3);
        CHECK(m.calls[0] == Prefixes{{kSos}});
        CHECK(m.calls[1] == Prefixes{{kSos, kA}});
        CHECK(m.calls[2] == Prefixes{{kSos, kA, kA}});
    }
    SECTION("other <sos> and <eos> ids are honoured") {
        // Vocabulary 0 = <eos>, 4 = <sos>, so kA and kB keep their ids.
        TableModel m;
        m.next[{4}] = probs({{kA, 0.7}, {0, 0.3}});
        m.next[{4, kA}] = probs({{0, 1.0}});
        BeamOptions o;
        o.beam_size = 2;
        o.sos_id = 4;
        o.eos_id = 0;
        const std::vector<BeamHypothesis> b = beam_search(m.scorer(), o);
        // Step 1: a (ln 0.7) lives; <eos> (ln 0.3) ranks 2nd of beam 2 -> finished. Step 2: a<eos> finishes.
        REQUIRE(m.calls.size() == 2);
        CHECK(m.calls[0] == Prefixes{{4}});
        CHECK(m.calls[1] == Prefixes{{4, kA}});
        REQUIRE(b.size() == 2);
        CHECK(b[0].tokens == std::vector<int>{kA, 0});  // ln 0.7 / lp(2) = -0.356675 / 1.096903 = -0.325166
        CHECK(b[0].score == Approx(-0.325166).margin(1e-5));
        CHECK(b[1].tokens == std::vector<int>{0});  // ln 0.3 / lp(1) = -1.203973 / 1
        CHECK(b[1].score == Approx(-1.203973).margin(1e-5));
    }
}

TEST_CASE("a prefix whose every next token is impossible is dropped", "[beam]") {
    // After a the model allows nothing (a row of -inf); after b, <eos>.
    TableModel m;
    m.next[{kSos}] = probs({{kA, 0.8}, {kB, 0.2}});
    m.next[{kSos, kA}] = probs({});
    m.next[{kSos, kB}] = probs({{kEos, 1.0}});
    BeamOptions o;
    o.beam_size = 2;
    const std::vector<BeamHypothesis> b = beam_search(m.scorer(), o);
    REQUIRE(b.size() == 1);
    CHECK(b[0].tokens == std::vector<int>{kB, kEos});
    CHECK(b[0].log_prob == Approx(std::log(0.2)).margin(1e-6));
    CHECK(m.calls.size() == 2);

    // Greedy walks into the dead end and has nothing to return.
    TableModel g = m;
    g.calls.clear();
    o.beam_size = 1;
    CHECK(beam_search(g.scorer(), o).empty());
}

TEST_CASE("a beam wider than the search space returns every sequence, ranked as brute force", "[beam]") {
    // V = 5, max 4 new tokens: 1 + 4 + 16 + 64 sequences end in <eos>, 4^4 = 256 are cut -> 341.
    // A beam of 1000 never prunes and never reaches 1000 finished, so it must score all 341.
    const RandomModel model{17, kV, 0.0f};
    BeamOptions o;
    o.beam_size = 1000;
    o.max_new_tokens = 4;

    std::vector<double> expected;  // every sequence's score, by brute force
    const auto expand = [&](const auto& self, std::vector<int> prefix, double log_prob) -> void {
        const Mat lp = model({prefix});  // (1, V)
        const size_t n = prefix.size();  // tokens generated so far + 1
        for (int v = 0; v < kV; ++v) {
            const double next = log_prob + static_cast<double>(lp(0, v));
            if (v == kEos || static_cast<int>(n) == o.max_new_tokens) {
                expected.push_back(next / gnmt_lp(n, o.length_penalty));
            } else {
                std::vector<int> longer = prefix;
                longer.push_back(v);
                self(self, std::move(longer), next);
            }
        }
    };
    expand(expand, {kSos}, 0.0);
    std::sort(expected.begin(), expected.end(), std::greater<>());

    const std::vector<BeamHypothesis> b = beam_search(model, o);
    REQUIRE(expected.size() == 341);
    REQUIRE(b.size() == expected.size());
    for (size_t i = 0; i < b.size(); ++i) {
        CHECK(b[i].score == Approx(expected[i]).epsilon(1e-12));
        CHECK(b[i].score == Approx(b[i].log_prob / gnmt_lp(b[i].tokens.size(), o.length_penalty)).epsilon(1e-12));
    }
}
