// The file dialog runs beside the window: start() returns at once while the program runs, the
// result is taken once it ends, and a missing program, a cancel and an owner that goes away while
// it is open are each handled. Stand-ins for zenity are small shell commands.
#include "file_dialog.h"
#include "model_opener.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using namespace attnlab::gui;
using Outcome = FileDialogResult::Outcome;
using Clock = std::chrono::steady_clock;

namespace {

// Polls as the window loop does, up to `limit`.
std::optional<FileDialogResult> wait_for(FileDialog& dialog, std::chrono::milliseconds limit) {
    const auto end = Clock::now() + limit;
    while (Clock::now() < end) {
        if (auto r = dialog.take()) return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("the file dialog never blocks: start returns at once and the choice arrives later", "[app]") {
    FileDialog dialog;
    const auto before = Clock::now();
    REQUIRE(dialog.start({"sh", "-c", "sleep 0.4; echo /models/en-ko.safetensors"}));
    CHECK(Clock::now() - before < std::chrono::milliseconds(200));
    CHECK(dialog.pending());
    CHECK_FALSE(dialog.take());                         // still open
    CHECK_FALSE(dialog.start({"sh", "-c", "echo x"}));  // one at a time
    const auto r = wait_for(dialog, std::chrono::seconds(5));
    REQUIRE(r);
    CHECK(r->outcome == Outcome::chosen);
    CHECK(r->path == "/models/en-ko.safetensors");
    CHECK_FALSE(dialog.pending());
    CHECK_FALSE(dialog.take());  // taken once
}

TEST_CASE("a cancelled dialog, a missing program and a failing one are told apart", "[app]") {
    FileDialog dialog;
    REQUIRE(dialog.start({"sh", "-c", "exit 1"}));  // zenity's cancel
    auto r = wait_for(dialog, std::chrono::seconds(5));
    REQUIRE(r);
    CHECK(r->outcome == Outcome::cancelled);

    REQUIRE(dialog.start({"attnlab-no-such-dialog-program"}));
    r = wait_for(dialog, std::chrono::seconds(5));
    REQUIRE(r);
    CHECK(r->outcome == Outcome::unavailable);

    REQUIRE(dialog.start({"sh", "-c", "exit 5"}));
    r = wait_for(dialog, std::chrono::seconds(5));
    REQUIRE(r);
    CHECK(r->outcome == Outcome::failed);
    CHECK_FALSE(r->message.empty());
}

TEST_CASE("an owner that goes away closes its open dialog at once", "[app]") {
    const auto before = Clock::now();
    {
        FileDialog dialog;
        REQUIRE(dialog.start({"sleep", "30"}));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(Clock::now() - before < std::chrono::seconds(5));
}

TEST_CASE("a failed open's notice names the file in plain words, in English and Korean", "[app]") {
    const OpenProblem text{OpenProblem::Kind::not_safetensors, "notes.txt", "header length 8389754706678849571"};
    CHECK(open_problem_text(text, false) == "notes.txt is not a safetensors model file");
    CHECK(open_problem_text(text, true) == "notes.txt은(는) safetensors 모델 파일이 아닙니다");
    const OpenProblem folder{OpenProblem::Kind::folder_without_config, "photos", ""};
    CHECK(open_problem_text(folder, false) == "photos is a folder without config.json");
}
