// The progress card's line names the step, how far the work is and for how long, in English and Korean;
// work that began past step 0 (a re-run after an edit) says which steps it re-runs.
#include "progress_screen.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("the progress line says the step, its place in the work and the time", "[app]") {
    const std::string path = "blocks.5.attn.weights";
    const WorkProgress whole{0, 149, 213, &path};
    CHECK(progress_text(whole, 2.14, false) ==
          "Running the forward pass: step 150 of 213 (blocks.5.attn.weights), 2.1 s");
    CHECK(progress_text(whole, 2.14, true) == "순전파 실행 중: 150 / 213단계 (blocks.5.attn.weights), 2.1초");
    const WorkProgress rerun{142, 149, 213, &path};
    CHECK(progress_text(rerun, 0.5, false) ==
          "Re-running steps 143 to 213: at step 150 (blocks.5.attn.weights), 0.5 s");
    CHECK(progress_text(rerun, 0.5, true) == "143~213단계 다시 실행 중: 150단계 (blocks.5.attn.weights), 0.5초");
    CHECK(rerun.fraction() == Approx(8.0 / 71.0));
    CHECK(WorkProgress{142, 212, 213, &path}.fraction() == 1.0);
}
