// Opening a model on a worker thread: the session it builds is the one opening on the window's
// thread builds, its trace versions never meet the current session's, and a failure comes back as
// the loader's error.
#include "../core/hf/hf_test_folders.h"
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

TEST_CASE("a model opened on a worker is the session opening it in place gives", "[background_open][needs_threads]") {
    Session current = current_session();
    REQUIRE(current.set_src_text("i like red apples"));
    BackgroundOpen open;
    CHECK_FALSE(open.take());  // nothing started
    CHECK_FALSE(open.trace_progress());
    REQUIRE(open.start(kModel, current));
    CHECK(open.path() == kModel);
    auto opened = wait_for(open);
    REQUIRE(opened);
    CHECK_FALSE(open.running());
    // The worker's stepper reported every step of the first trace (and the window's thread heard none of it).
    const auto trace = open.trace_progress();
    REQUIRE(trace);
    CHECK(trace->total == opened->stepper().size());
    CHECK(trace->done == trace->total);

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

TEST_CASE("a file that does not open comes back as the loader's error", "[background_open][needs_threads]") {
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
          "[background_open][needs_threads]") {
    const Session current = current_session();  // an encoder-decoder showing "i like red apples"
    BackgroundOpen open;
    REQUIRE(open.start(ATTNLAB_SOURCE_DIR "/tests/golden/fixtures/hf_gpt2", current));
    const auto opened = wait_for(open);
    REQUIRE(opened);  // the fixture has no tokenizer files: it cannot read the sentence, and has no <sos>
    CHECK(opened->target().labels.size() == 1);
    CHECK(opened->src_text().empty());
    CHECK(opened->stepper().cursor() == opened->stepper().size());
}

TEST_CASE("a GPT-2 session's prompt is the prompt of the GPT-2 folder it opens next", "[background_open][needs_threads]") {
    test::TempFolder folder;
    test::write_gpt2_with_tokenizer(folder);
    auto current = Session::from_file(folder.path(), "", "", 1);
    REQUIRE(current);
    REQUIRE(current->set_src_text("hello world"));  // a decoder-only model keeps its prompt as the target text
    const size_t tokens = current->target().labels.size();
    REQUIRE(tokens > 1);

    BackgroundOpen open;
    REQUIRE(open.start(folder.path(), *current));
    const auto opened = wait_for(open);
    REQUIRE(opened);
    CHECK(opened->tgt_text() == "hello world");
    CHECK(opened->target().labels == current->target().labels);
    CHECK(opened->target().labels.size() == tokens);
}

TEST_CASE("between frames, an open waits for the next pump and gives the threaded open's session",
          "[background_open][between_frames][needs_threads]") {
    const Session current = current_session();
    BackgroundOpen threaded;
    REQUIRE(threaded.start(kModel, current));
    const auto on_thread = wait_for(threaded);
    REQUIRE(on_thread);

    BackgroundOpen framed(WorkMode::between_frames);
    REQUIRE(framed.start(kModel, current));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(framed.running());  // nothing happens until a pump
    CHECK_FALSE(framed.take());
    CHECK_FALSE(framed.trace_progress());
    CHECK_FALSE(framed.start(kModel, current));  // one open at a time, as on a thread
    framed.pump(std::chrono::milliseconds(12));
    CHECK_FALSE(framed.running());
    auto opened = framed.take();
    REQUIRE(opened);
    REQUIRE(*opened);
    CHECK_FALSE(framed.take());  // taken once
    const auto trace = framed.trace_progress();
    REQUIRE(trace);
    CHECK(trace->total == (*opened)->stepper().size());
    CHECK(trace->done == trace->total);
    CHECK((*opened)->src_text() == on_thread->src_text());
    CHECK((*opened)->source().labels == on_thread->source().labels);
    CHECK((*opened)->stepper().output("logits")->data == on_thread->stepper().output("logits")->data);
    CHECK((*opened)->stepper().run_facts("logits")->version == on_thread->stepper().run_facts("logits")->version);

    REQUIRE(framed.start(ATTNLAB_SOURCE_DIR "/README.md", current));  // and a failure comes back as on a thread
    framed.pump(std::chrono::milliseconds(12));
    const auto failed = framed.take();
    REQUIRE(failed);
    CHECK_FALSE(*failed);
}
