// The compare tool's run B without a window: B is the stepper one would make by hand, the traces part where B's
// switched-off head first acts, B is made anew only when A's trace or B's description changes (and only follows
// A's cursor when that alone moved), and another model is read off the window's thread, a bad file in one line.
#include "compare_run.h"
#include "session_support.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const AttentionHead kHead{{AttentionUse::decoder_self, 1}, 2};

CompareChoice heads_off(std::vector<AttentionHead> heads) {
    CompareChoice c;
    c.ablated = std::move(heads);
    return c;
}

CompareChoice other_model(const std::string& path) {
    CompareChoice c;
    c.other_model = true;
    c.other_path = path;
    return c;
}

// A's stepper made again by hand, with `head` off, run to the end.
Stepper fresh_with_head_off(const Stepper& a, const AttentionHead& head) {
    auto s = Stepper::create(a.config(), a.weights(), a.inputs());
    REQUIRE(s);
    REQUIRE(s->set_head_ablated(head.site, head.head, true));
    s->run_all();
    return std::move(*s);
}

}  // namespace

TEST_CASE("CompareRun: B is A's model with the heads off, and the traces part where the head acts", "[compare_run]") {
    Session session = test::english_korean();
    const Stepper& a = session.stepper();
    REQUIRE(a.cursor() == a.size());
    CompareRun run;
    REQUIRE(run.update(a, heads_off({kHead})));
    REQUIRE(run.state() == CompareRun::State::ready);
    REQUIRE(run.b());
    const Stepper fresh = fresh_with_head_off(a, kHead);
    CHECK(run.shared().size() == a.size());
    CHECK(run.relative().size() == run.shared().size());
    for (const std::string& path : run.shared()) CHECK(run.b()->output(path)->data == fresh.output(path)->data);

    // Where the traces part: the first step (in A's order) whose output the head's switch changes.
    std::optional<std::string> parts;
    for (const Step& step : a.steps())
        if (!parts && a.output(step.path)->data != fresh.output(step.path)->data) parts = step.path;
    REQUIRE(parts);
    CHECK(parts->rfind("decoder.layers.1.self_attn", 0) == 0);
    CHECK(run.first_difference() == parts);

    // A step's B − A: the logits (T, V), every column (the vocabulary is narrower than 48).
    const std::string logits = run.step_or_default(a, "");
    CHECK(logits == "logits");
    const DiffBlock& block = run.block(a, logits, 0);
    REQUIRE(block.diff);
    const Tensor& a_logits = *a.output("logits");
    CHECK(block.rows == a_logits.dim(0));
    CHECK(block.cols == a_logits.dim(1));
    const Tensor& b_logits = *fresh.output("logits");
    for (size_t i = 0; i < block.values.size(); ++i) CHECK(block.values[i] == b_logits.data[i] - a_logits.data[i]);

    // No head off: B is A, step for step.
    CompareRun same;
    same.update(a, heads_off({}));
    CHECK(same.shared().size() == a.size());
    CHECK_FALSE(same.first_difference());
}

TEST_CASE("CompareRun: B is made anew on a change of A's trace or B's heads, not every frame", "[compare_run]") {
    Session session = test::english_korean();
    CompareRun run;
    CompareChoice c = heads_off({kHead});
    REQUIRE(run.update(session.stepper(), c));
    const uint64_t version = run.version();
    CHECK_FALSE(run.update(session.stepper(), c));
    c.step = "logits";  // the shown step and slice are not B's
    c.slice = 1;
    CHECK_FALSE(run.update(session.stepper(), c));
    CHECK(run.version() == version);

    c.ablated.push_back({{AttentionUse::decoder_self, 0}, 1});  // B's description
    CHECK(run.update(session.stepper(), c));
    CHECK_FALSE(run.update(session.stepper(), c));

    REQUIRE(session.toggle_head({AttentionUse::decoder_self, 0}, 3));  // an edit of A: B keeps A's switched-off heads
    CHECK(run.update(session.stepper(), c));
    CHECK(run.b()->inputs().ablated_heads.at({AttentionUse::decoder_self, 0}).count(3) == 1);

    // A's cursor alone moves: B follows it, run back, not made anew (its versions go on from where they were).
    const uint64_t b_versions = run.b()->next_version();
    const size_t steps = run.shared().size();
    session.step_back();
    CHECK(run.update(session.stepper(), c));
    CHECK(run.shared().size() == steps - 1);
    CHECK(run.b()->cursor() == session.stepper().cursor());
    CHECK(run.b()->next_version() == b_versions);
    CHECK_FALSE(run.update(session.stepper(), c));
}

TEST_CASE("CompareRun: a bad file for B is one line in the panel, and the read is not repeated", "[compare_run]") {
    Session session = test::english_korean();
    CompareRun run(WorkMode::between_frames);
    CHECK(run.update(session.stepper(), other_model("")));
    CHECK(run.state() == CompareRun::State::no_path);
    const std::string missing = ATTNLAB_SOURCE_DIR "/tests/no-such-model.safetensors";
    run.update(session.stepper(), other_model(missing));
    CHECK(run.state() == CompareRun::State::opening);  // between frames: read in the next frame
    CHECK(run.opening() == missing);
    CHECK(run.update(session.stepper(), other_model(missing)));
    REQUIRE(run.state() == CompareRun::State::failed);
    CHECK_FALSE(run.error().empty());
    CHECK(run.error().find('\n') == std::string::npos);
    CHECK_FALSE(run.b());
    CHECK_FALSE(run.update(session.stepper(), other_model(missing)));
    CHECK(run.state() == CompareRun::State::failed);
}

TEST_CASE("CompareRun: another model is read on a worker while the window goes on", "[compare_run][needs_threads]") {
    const std::string path = ATTNLAB_SOURCE_DIR "/assets/models/en-ko.safetensors";
    auto session = Session::from_file(path, "i like red apples", "", 1);
    REQUIRE(session);
    CompareRun run;
    run.update(session->stepper(), other_model(path));
    for (int frame = 0; frame < 6000 && run.state() == CompareRun::State::opening; ++frame) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        run.update(session->stepper(), other_model(path));
    }
    REQUIRE(run.state() == CompareRun::State::ready);
    CHECK(run.shared().size() == session->stepper().size());
    CHECK_FALSE(run.first_difference());  // the same file: the same trace
}
