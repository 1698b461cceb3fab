// Opening a model on a worker thread: the session it builds is the one opening on the window's
// thread builds, its trace versions never meet the current session's, and a failure comes back as
// the loader's error.
#include "background_open.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kModel = ATTNLAB_SOURCE_DIR "/assets/models/en-ko.safetensors";

Session current_session() {
    auto s = Session::from_preset("tiny", 3, std::nullopt, std::nullopt, "i like red apples");
    REQUIRE(s);
    return std::move(*s);
}

// Polls as the window does, once a frame, until the open has finished (at most a minute).
Result<Session> wait_for(BackgroundOpen& open) {
    for (int frame = 0; frame < 6000; ++frame) {
        if (auto done = open.take()) return std::move(*done);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL("the open did not finish within a minute");
    return Error{"unreachable"};
}

}  // namespace

TEST_CASE("a model opened on a worker is the session opening it in place gives", "[background_open]") {
    Session current = current_session();
    REQUIRE(current.set_src_text("i like red apples"));
    BackgroundOpen open;
    CHECK_FALSE(open.take());  // nothing started
    REQUIRE(open.start(kModel, current));
    CHECK(open.path() == kModel);
    auto opened = wait_for(open);
    REQUIRE(opened);
    CHECK_FALSE(open.running());

    Session in_place = current_session();
    REQUIRE(in_place.open_model_file(kModel));
    CHECK(opened->src_text() == in_place.src_text());
    CHECK(opened->source().labels == in_place.source().labels);
    CHECK(opened->stepper().cursor() == opened->stepper().size());
    const Tensor& logits = *opened->stepper().output("logits");
    CHECK(logits.data == in_place.stepper().output("logits")->data);
    // Its versions start past any the current session reaches meanwhile.
    CHECK(opened->stepper().run_facts("logits")->version > current.stepper().next_version() + 1000000);

    const uint64_t serial = current.model_serial();
    current.adopt_session(std::move(*opened));
    CHECK(current.model_serial() == serial + 1);
    CHECK(current.model_name() == kModel);
}

TEST_CASE("a file that does not open comes back as the loader's error", "[background_open]") {
    const Session current = current_session();
    BackgroundOpen open;
    REQUIRE(open.start(ATTNLAB_SOURCE_DIR "/README.md", current));
    const auto opened = wait_for(open);
    REQUIRE_FALSE(opened);
    CHECK_FALSE(opened.error().message.empty());
    REQUIRE(open.start(ATTNLAB_SOURCE_DIR "/no-such-model.safetensors", current));  // and the next open starts
    CHECK_FALSE(wait_for(open));
}

TEST_CASE("a GPT-2 folder opens on the user's sentence as its prompt, or without a tokenizer on its first id",
          "[background_open]") {
    const Session current = current_session();  // an encoder-decoder showing "i like red apples"
    BackgroundOpen open;
    REQUIRE(open.start(ATTNLAB_SOURCE_DIR "/tests/golden/fixtures/hf_gpt2", current));
    const auto opened = wait_for(open);
    REQUIRE(opened);  // the fixture has no tokenizer files: it cannot read the sentence, and has no <sos>
    CHECK(opened->target().labels.size() == 1);
    CHECK(opened->src_text().empty());
    CHECK(opened->stepper().cursor() == opened->stepper().size());
}
