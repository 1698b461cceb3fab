// attnlab's command line: --help names every view that --view accepts.
#include "launch_options.h"
#include "view_state.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

using namespace attnlab::gui;

TEST_CASE("the --help text lists every view, and --view takes each one it lists") {
    const std::string usage = launch_usage();
    const size_t line = usage.find("views (--view NAME):");
    REQUIRE(line != std::string::npos);
    const std::string views = " " + usage.substr(line, usage.find('\n', line) - line) + " ";
    for (View v : kAllViews) {
        INFO(view_id(v));
        CHECK(views.find(std::string(" ") + view_id(v) + " ") != std::string::npos);
        auto o = parse_launch_options({"--view", view_id(v)});
        REQUIRE(o);
        CHECK(o->view == std::string(view_id(v)));
    }
    CHECK(views.find(" playground ") != std::string::npos);  // the two it once left out
    CHECK(views.find(" analysis ") != std::string::npos);
    CHECK_FALSE(parse_launch_options({"--view", "nonsense"}));
}

TEST_CASE("a content scale from 0.5 to 4 (--scale), and the on-screen check only with a chapter and a screenshot") {
    auto o = parse_launch_options({"--scale", "2", "--size", "3840x2160"});
    REQUIRE(o);
    REQUIRE(o->scale);
    CHECK(*o->scale == 2.0f);
    CHECK_FALSE(parse_launch_options({}).value().scale);  // the system's scale unless asked
    for (const char* bad : {"0", "4.5", "two", "2x", "-1"}) {
        INFO(bad);
        auto refused = parse_launch_options({"--scale", bad});
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message.find("--scale") != std::string::npos);
    }

    auto checked = parse_launch_options({"--tour", "4", "--screenshot", "x.png", "--check-tour-target"});
    REQUIRE(checked);
    CHECK(checked->check_tour_target);
    for (const auto& args : {std::vector<std::string>{"--check-tour-target", "--screenshot", "x.png"},
                             std::vector<std::string>{"--check-tour-target", "--tour", "4"}}) {
        auto refused = parse_launch_options(args);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message == "--check-tour-target needs --tour N and --screenshot OUT.png");
    }
    CHECK(launch_usage().find("--check-tour-target") != std::string::npos);
    CHECK(launch_usage().find("--scale X") != std::string::npos);
}

TEST_CASE("the --generate N flag asks for the generation token by token, N a positive token count") {
    auto o = parse_launch_options({"--view", "output", "--generate", "3", "--screenshot", "x.png"});
    REQUIRE(o);
    CHECK(o->generate_tokens == 3);
    CHECK(parse_launch_options({}).value().generate_tokens == 0);  // none unless asked
    for (const char* bad : {"0", "-2", "three", "1001"}) {
        INFO(bad);
        auto refused = parse_launch_options({"--generate", bad});
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message == "--generate takes a positive token count");
    }
    CHECK(launch_usage().find("--generate N") != std::string::npos);
}

TEST_CASE("the --threads N flag sets the forward pass's threads, N a whole number from 1, and --help names it") {
    CHECK_FALSE(parse_launch_options({}).value().threads);  // every core unless asked
    auto o = parse_launch_options({"--threads", "1"});
    REQUIRE(o);
    REQUIRE(o->threads);
    CHECK(*o->threads == 1);
    CHECK(parse_launch_options({"--threads", "2"}).value().threads == 2);
    for (const char* bad : {"0", "x", "-2", "1.5", "", "100000"}) {
        INFO(bad);
        auto refused = parse_launch_options({"--threads", bad});
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message.find("--threads") != std::string::npos);
        CHECK(refused.error().message.find('\n') == std::string::npos);
    }
    CHECK_FALSE(parse_launch_options({"--threads"}));
    CHECK(launch_usage().find("[--threads N]") != std::string::npos);
}

TEST_CASE("the --src-file FILE flag reads the input text from a file, its final newline dropped") {
    const std::string path = "/tmp/attnlab-test-src-file.txt";
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        REQUIRE(f);
        std::fputs("a paragraph of 빨간 text\nover two lines\n", f);
        std::fclose(f);
    }
    auto o = parse_launch_options({"--src-file", path});
    REQUIRE(o);
    REQUIRE(o->src);
    CHECK(*o->src == "a paragraph of 빨간 text\nover two lines");
    std::remove(path.c_str());
    auto missing = parse_launch_options({"--src-file", path});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.rfind("--src-file: ", 0) == 0);
    CHECK_FALSE(parse_launch_options({"--src", "x", "--src-file", path}));
    CHECK(launch_usage().find("--src-file FILE") != std::string::npos);
}

TEST_CASE("a head to switch off at launch is USE:LAYER:HEAD (--head-off), each once, and --help names it") {
    auto o = parse_launch_options({"--head-off", "decoder_self:0:1", "--head-off", "cross:1:3"});
    REQUIRE(o);
    REQUIRE(o->heads_off.size() == 2);
    CHECK(o->heads_off[0] == LaunchHead{{attnlab::AttentionUse::decoder_self, 0}, 1});
    CHECK(o->heads_off[1] == LaunchHead{{attnlab::AttentionUse::cross, 1}, 3});
    CHECK(parse_launch_options({}).value().heads_off.empty());
    for (const char* bad :
         {"decoder_self:0", "decoder:0:1", "cross:-1:0", "cross:0:x", "encoder_self_x:0:1", ":0:1", "cross:0:1:2"}) {
        INFO(bad);
        auto refused = parse_launch_options({"--head-off", bad});
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message.find("--head-off") != std::string::npos);
    }
    // A second would switch it on again.
    CHECK_FALSE(parse_launch_options({"--head-off", "cross:0:1", "--head-off", "cross:0:1"}));
    CHECK(launch_usage().find("--head-off USE:LAYER:HEAD") != std::string::npos);
}

TEST_CASE("the --bench-edit POS flag takes a token position from 0, and --help names it") {
    CHECK_FALSE(parse_launch_options({}).value().bench_edit);
    CHECK(parse_launch_options({"--bench-edit", "496"}).value().bench_edit == 496);
    CHECK(parse_launch_options({"--bench-edit", "0"}).value().bench_edit == 0);
    for (const char* bad : {"-1", "x", "", "1.5"}) {
        INFO(bad);
        auto refused = parse_launch_options({"--bench-edit", bad});
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message.find("--bench-edit") != std::string::npos);
    }
    CHECK(launch_usage().find("[--bench-edit POS]") != std::string::npos);
}

TEST_CASE("the window size (--size) names why it refuses one: not WIDTHxHEIGHT, too small or too large", "[app][launch]") {
    auto message = [](const char* size) {
        auto o = parse_launch_options({"--size", size});
        REQUIRE_FALSE(o);
        return o.error().message;
    };
    const std::string small = message("10x10");  // in the right form: the trial was told it was not
    CHECK(small.find("too small") != std::string::npos);
    CHECK(small.find("320x240") != std::string::npos);
    CHECK(small.find("takes WIDTHxHEIGHT") == std::string::npos);
    CHECK(message("9000x900").find("too large") != std::string::npos);
    CHECK(message("big").find("WIDTHxHEIGHT") != std::string::npos);
    CHECK(message("800xa").find("WIDTHxHEIGHT") != std::string::npos);
    auto fits = parse_launch_options({"--size", "320x240"});
    REQUIRE(fits);
    CHECK(fits->width == 320);
    CHECK(fits->height == 240);
}
