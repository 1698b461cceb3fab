// "Play stages": the stage animation's clock against a fake clock (plain seconds), and the values between stages.
#include "panels/stage_animation.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

using attnlab::gui::blend_stage_values;
using attnlab::gui::StageAnimation;
using attnlab::gui::StageFrame;
using attnlab::gui::StageTiming;

TEST_CASE("stage animation holds each stage, then morphs into the next", "[stage_animation]") {
    const StageTiming timing{1.0, 0.5};  // a stage every 1.5 s
    StageAnimation anim(timing);
    const double t0 = 100.0;  // the fake clock starts anywhere
    anim.play(5, t0);
    CHECK(anim.duration() == Approx(5 * 1.0 + 4 * 0.5));

    StageFrame f = anim.frame(t0);
    CHECK((f.playing && f.from == 0 && f.to == 0 && f.blend == 0.0f));
    f = anim.frame(t0 + 0.9);  // still holding stage 0
    CHECK((f.from == 0 && f.to == 0));
    f = anim.frame(t0 + 1.25);  // halfway through the morph 0 → 1
    CHECK((f.from == 0 && f.to == 1));
    CHECK(f.blend == Approx(0.5f));
    CHECK(f.nearest() == 1);
    f = anim.frame(t0 + 1.6);  // holding stage 1
    CHECK((f.from == 1 && f.to == 1 && f.blend == 0.0f));
    f = anim.frame(t0 + 4.5 + 0.1);  // 0.1 s into stage 3's hold, which starts at 3 × 1.5 s
    CHECK((f.from == 3 && f.to == 3));
    f = anim.frame(t0 + 4.5 + 1.0 + 0.1);
    CHECK((f.from == 3 && f.to == 4));
    CHECK(f.blend == Approx(0.2f));
    CHECK(f.nearest() == 3);
}

TEST_CASE("stage animation ends on the last stage and stops playing", "[stage_animation]") {
    StageAnimation anim(StageTiming{0.5, 0.25});
    anim.play(3, 0.0);
    CHECK(anim.playing(anim.duration() - 0.01));
    const StageFrame end = anim.frame(anim.duration() + 10.0);
    CHECK_FALSE(end.playing);
    CHECK((end.from == 2 && end.to == 2 && end.blend == 0.0f));
}

TEST_CASE("stage animation stopped mid-morph freezes on that frame", "[stage_animation]") {
    StageAnimation anim(StageTiming{1.0, 1.0});
    anim.play(4, 10.0);
    anim.stop(10.0 + 1.75);  // three quarters into the morph 0 → 1
    for (double later : {11.75, 12.0, 50.0}) {
        const StageFrame f = anim.frame(later);
        CHECK_FALSE(f.playing);
        CHECK((f.from == 0 && f.to == 1));
        CHECK(f.blend == Approx(0.75f));
        CHECK(f.nearest() == 1);
    }
    anim.play(4, 60.0);  // plays again from the start
    CHECK(anim.frame(60.0).playing);
    CHECK(anim.frame(60.0).from == 0);
}

TEST_CASE("stage animation with fewer than two stages plays nothing", "[stage_animation]") {
    StageAnimation anim;
    CHECK_FALSE(anim.playing(0.0));
    anim.play(1, 0.0);
    CHECK_FALSE(anim.playing(0.1));
    CHECK(anim.frame(0.1).from == 0);
}

TEST_CASE("values between stages: linear where finite, a masked score appears or vanishes halfway",
          "[stage_animation]") {
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> scaled = {2.0f, -1.0f, 0.5f};
    const std::vector<float> masked = {2.0f, -inf, 0.5f};
    const std::vector<float> weights = {0.8f, 0.0f, 0.2f};
    std::vector<float> out(3);

    blend_stage_values(scaled.data(), masked.data(), 3, 0.25f, out.data());
    CHECK(out[0] == Approx(2.0f));
    CHECK(out[1] == Approx(-1.0f));  // not masked yet
    blend_stage_values(scaled.data(), masked.data(), 3, 0.75f, out.data());
    CHECK((std::isinf(out[1]) && out[1] < 0));

    blend_stage_values(masked.data(), weights.data(), 3, 0.25f, out.data());
    CHECK(out[0] == Approx(2.0f + (0.8f - 2.0f) * 0.25f));
    CHECK(std::isinf(out[1]));
    CHECK(out[2] == Approx(0.5f + (0.2f - 0.5f) * 0.25f));
    blend_stage_values(masked.data(), weights.data(), 3, 1.0f, out.data());
    CHECK(out == weights);

    out = masked;  // in place
    blend_stage_values(out.data(), weights.data(), 3, 0.5f, out.data());
    CHECK(out[0] == Approx(1.4f));
    CHECK(out[1] == 0.0f);
}
