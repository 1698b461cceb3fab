// The stepper reports each step it computes to a listener on its thread (progress.h): a whole run reports
// every step in order, an edit only what it re-runs, and a thread nobody listens on reports to no one.
#include "progress.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <thread>
#include <vector>

using namespace attnlab;
using namespace attnlab::test;

namespace {

struct Heard : ProgressListener {
    std::vector<WorkProgress> reports;
    std::vector<std::string> paths;
    void on_progress(const WorkProgress& p) override {
        reports.push_back(p);
        paths.push_back(p.step_path ? *p.step_path : std::string("(none)"));
    }
};

}  // namespace

TEST_CASE("a whole run reports every step in order, the last one at fraction 1", "[progress]") {
    Stepper s = make_stepper(small_config());
    Heard heard;
    ListenToProgress listening(heard);
    s.run_to(5);
    REQUIRE(heard.reports.size() == 5);
    heard.reports.clear();
    heard.paths.clear();
    s.run_all();  // from the cursor at 5 to the end
    const size_t n = s.size();
    REQUIRE(heard.reports.size() == n - 5);
    for (size_t k = 0; k < heard.reports.size(); ++k) {
        INFO(k);
        CHECK(heard.reports[k].first == 5);
        CHECK(heard.reports[k].at == 5 + k);
        CHECK(heard.reports[k].end == n);
        CHECK(heard.paths[k] == s.step(5 + k).path);
    }
    CHECK(heard.reports.front().fraction() == Approx(1.0 / static_cast<double>(n - 5)));
    CHECK(heard.reports.back().fraction() == 1.0);
}

TEST_CASE("an edit reports the steps it re-runs, from the first it computes to the cursor", "[progress]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    Heard heard;
    ListenToProgress listening(heard);
    SECTION("a weight of the last decoder layer") {
        const size_t first = *s.find("decoder.layers.1.self_attn.q");
        const std::string name = s.step(first).params.front();
        REQUIRE(s.set_weight_value(name, 0, 0.75f));
        REQUIRE(heard.reports.size() == s.last_computed());
        CHECK(heard.reports.front().at == first);
        for (const WorkProgress& p : heard.reports) {
            CHECK(p.first == first);
            CHECK(p.end == s.size());
        }
    }
    SECTION("a target token, re-run by rows") {
        REQUIRE(s.set_tgt_ids({1, 6, 11, 9}));
        REQUIRE(!heard.reports.empty());
        CHECK(heard.reports.size() <= s.last_computed());
        for (size_t k = 1; k < heard.reports.size(); ++k) CHECK(heard.reports[k].at > heard.reports[k - 1].at);
        CHECK(heard.reports.front().at >= *s.find("tgt.embed"));  // no encoder step
        CHECK(heard.reports.back().end == s.size());
    }
}

TEST_CASE("work on a thread nobody listens on reports to no one", "[progress][needs_threads]") {
    Heard heard;
    Stepper s = make_stepper(small_config());
    {
        ListenToProgress listening(heard);
        std::thread([&] { s.run_all(); }).join();
    }
    CHECK(heard.reports.empty());
    s.run_to(0);
    s.run_all();  // after the listener has gone
    CHECK(heard.reports.empty());
    Heard outer, inner;
    ListenToProgress a(outer);
    {
        ListenToProgress b(inner);
        s.step_back();
        s.step_forward();
    }
    s.step_back();
    s.step_forward();
    CHECK(inner.reports.size() == 1);
    CHECK(outer.reports.size() == 1);
}
