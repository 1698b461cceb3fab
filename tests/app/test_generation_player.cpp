// Generation token by token, driven by a clock of the test's own: one token per tick and never two
// in one call, pause and resume keep the place in the tick, and a run ends at <eos>, at its limit,
// at max_len, when stopped, or when the target changes under it.
#include "generation_player.h"
#include "session_support.h"

#include <algorithm>

using namespace attnlab;
using namespace attnlab::gui;
using attnlab::gui::test::english_korean;

namespace {

constexpr float kTokensPerSecond = 4.0f;  // a tick of 0.25 s, exact in binary
constexpr double kTick = 0.25;

GenerationChoice greedy() { return {false, 1.0f, 0, 1.0f, kTokensPerSecond}; }

size_t target_size(const Session& s) { return s.stepper().inputs().tgt_ids.size(); }

// <eos>'s logit made ±10⁶: the decoder's final norm puts 1000 in dimension 0 of every position, and
// <eos>'s row of the output head reads it with weight ±1000 (every other row's weight there is small).
void set_eos_logit(Session& s, float sign) {
    const ModelConfig& c = s.stepper().config();
    REQUIRE(s.set_weight("decoder.norm.bias", 0, 1000.0f));
    REQUIRE(s.set_weight("generator.weight", static_cast<int64_t>(c.eos_id) * c.d_model, sign * 1000.0f));
}
void make_eos_certain(Session& s) { set_eos_logit(s, 1.0f); }
void make_eos_impossible(Session& s) { set_eos_logit(s, -1.0f); }

}  // namespace

TEST_CASE("one token appears per tick, from <sos>, and none between ticks") {
    Session s = english_korean();
    make_eos_impossible(s);
    REQUIRE(s.set_tgt_text("나 는"));
    GenerationPlayer p;
    REQUIRE(p.start(s, true, 10.0));
    CHECK(s.stepper().inputs().tgt_ids == std::vector<int>{s.stepper().config().sos_id});  // translated afresh
    CHECK(p.playing());
    CHECK(p.first_position() == 1);
    for (int tick = 1; tick <= 5; ++tick) {
        CHECK_FALSE(p.advance(s, greedy(), 1, 10.0 + (tick - 0.5) * kTick));  // half a tick: nothing yet
        CHECK(target_size(s) == static_cast<size_t>(tick));
        CHECK(p.advance(s, greedy(), 1, 10.0 + tick * kTick));
        CHECK(target_size(s) == static_cast<size_t>(tick + 1));
        CHECK(p.appended() == tick);
        CHECK(p.rate().count() == std::min<size_t>(static_cast<size_t>(tick), TokenRate::kWindow));
        CHECK(p.rate().tokens_per_second() > 0.0);  // each token's compute time, measured
        CHECK(p.newest_age(10.0 + tick * kTick, kTokensPerSecond) == 0.0f);  // just appeared: fully highlighted
        CHECK(p.newest_age(10.0 + (tick + 0.5) * kTick, kTokensPerSecond) == Approx(0.5f));
    }
    CHECK(p.owns_target(s));
    REQUIRE(p.start(s, false, 20.0));
    CHECK(p.rate().count() == 0);  // a new run measures afresh
}

TEST_CASE("a late frame appends one token, and the next comes a whole tick after it") {
    Session s = english_korean();
    make_eos_impossible(s);
    GenerationPlayer p;
    REQUIRE(p.start(s, true, 0.0));
    CHECK(p.advance(s, greedy(), 1, 10 * kTick));  // ten ticks late
    CHECK(p.appended() == 1);
    CHECK_FALSE(p.advance(s, greedy(), 1, 10 * kTick));
    CHECK_FALSE(p.advance(s, greedy(), 1, 10.5 * kTick));
    CHECK(p.advance(s, greedy(), 1, 11 * kTick));
    CHECK(p.appended() == 2);
}

TEST_CASE("the run ends as <eos> appears") {
    Session s = english_korean();
    make_eos_certain(s);
    GenerationPlayer p;
    REQUIRE(p.start(s, true, 0.0));
    CHECK(p.advance(s, greedy(), 1, kTick));
    CHECK(s.stepper().inputs().tgt_ids.back() == s.stepper().config().eos_id);
    CHECK_FALSE(p.active());
    CHECK(p.end() == GenerationEnd::eos);
    CHECK_FALSE(p.advance(s, greedy(), 1, 2 * kTick));  // over: nothing more
    CHECK(target_size(s) == 2);
    CHECK(p.owns_target(s));  // its highlights still hold until the target changes
}

TEST_CASE("the run ends at its limit of new tokens, and at max_len") {
    Session s = english_korean();
    make_eos_impossible(s);
    GenerationPlayer p;
    REQUIRE(p.start(s, true, 0.0, 3));
    int appended = 0;
    for (int tick = 1; tick <= 10; ++tick) appended += p.advance(s, greedy(), 1, tick * kTick) ? 1 : 0;
    CHECK(appended == 3);
    CHECK(p.end() == GenerationEnd::limit);
    CHECK(target_size(s) == 4);

    const int max_len = s.stepper().config().max_len;
    REQUIRE(s.set_tgt_ids(std::vector<int>(static_cast<size_t>(max_len) - 2, 4)));
    REQUIRE(p.start(s, false, 0.0, 100));  // continue the target: two places left
    for (int tick = 1; tick <= 5; ++tick) p.advance(s, greedy(), 1, tick * kTick);
    CHECK(p.appended() == 2);
    CHECK(p.end() == GenerationEnd::max_len);
    CHECK(static_cast<int>(target_size(s)) == max_len);
    REQUIRE(p.start(s, false, 0.0));  // already full: over before the first tick
    CHECK(p.end() == GenerationEnd::max_len);
    CHECK_FALSE(p.active());
}

TEST_CASE("pause keeps the place in the tick; stop and an edited target end the run") {
    Session s = english_korean();
    make_eos_impossible(s);
    GenerationPlayer p;
    REQUIRE(p.start(s, true, 0.0));
    p.pause(0.75 * kTick);
    CHECK(p.paused());
    CHECK_FALSE(p.advance(s, greedy(), 1, 100.0));  // paused: no token however long
    CHECK(p.appended() == 0);
    p.resume(200.0);
    CHECK_FALSE(p.advance(s, greedy(), 1, 200.0 + 0.2 * kTick));
    CHECK(p.advance(s, greedy(), 1, 200.0 + 0.25 * kTick));  // the rest of the tick it was paused in
    p.stop();
    CHECK(p.end() == GenerationEnd::stopped);
    CHECK_FALSE(p.advance(s, greedy(), 1, 300.0));
    CHECK(p.appended() == 1);

    REQUIRE(p.start(s, true, 0.0));
    REQUIRE(s.set_tgt_text("사과"));  // the user types while it plays
    CHECK_FALSE(p.advance(s, greedy(), 1, kTick));
    CHECK(p.end() == GenerationEnd::interrupted);
    CHECK_FALSE(p.owns_target(s));
}

TEST_CASE("sampled tokens come from the seed given, so the same seeds give the same run") {
    const GenerationChoice sampled{true, 1.5f, 0, 1.0f, kTokensPerSecond};
    std::vector<std::vector<int>> runs;
    for (int run = 0; run < 2; ++run) {
        Session s = english_korean();
        make_eos_impossible(s);
        GenerationPlayer p;
        REQUIRE(p.start(s, true, 0.0));
        for (int tick = 1; tick <= 6; ++tick) REQUIRE(p.advance(s, sampled, static_cast<uint64_t>(tick), tick * kTick));
        runs.push_back(s.stepper().inputs().tgt_ids);
    }
    CHECK(runs[0].size() == 7);
    CHECK(runs[0] == runs[1]);
}
