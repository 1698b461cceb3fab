// attnlab's command line: --help names every view that --view accepts.
#include "launch_options.h"
#include "view_state.h"

#include <catch2/catch.hpp>

#include <string>

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
