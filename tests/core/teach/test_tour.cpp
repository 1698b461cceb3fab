// The bundled tour: its chapters cover the paper's sections 3.1-3.5 in both languages; and the
// parser's refusals of broken tour files.
#include "teach/tour.h"

#include "../test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

using namespace attnlab;
using namespace attnlab::test;

namespace {

std::string chapter(const std::string& extra) {
    const std::string text = R"({"title": "t", "look": "l", "task": "k", "done": "d"})";
    return R"({"chapters": [{"id": "a", "section": "3.1", "model": "tiny", "view": "attention", )"
           R"("task": "edit_source", "en": )" +
           text + R"(, "ko": )" + text + extra + "}]}";
}

}  // namespace

TEST_CASE("the bundled tour covers sections 3.1 to 3.5, each chapter in English and Korean") {
    auto tour = load_tour(ATTNLAB_SOURCE_DIR "/assets");
    REQUIRE(tour);
    REQUIRE(tour->size() == 7);
    std::set<std::string> sections;
    for (const TourChapter& c : *tour) {
        INFO(c.id);
        sections.insert(c.section);
        CHECK(!c.model.empty());
        CHECK(!c.src.empty());
        for (Language lang : {Language::english, Language::korean}) {
            const TourText& t = c.in(lang);
            CHECK(!t.title.empty());
            CHECK(t.look.size() > 80);  // says what to look at, not a label
            CHECK(!t.task.empty());
            CHECK(!t.done.empty());
            CHECK(has_hangul(t.title + t.look + t.task + t.done) == (lang == Language::korean));
        }
        if (c.task == TourTaskKind::step_past) CHECK(!c.task_step.empty());
    }
    CHECK(sections == std::set<std::string>{"3.1", "3.2.1", "3.2.2", "3.2.3", "3.3", "3.4", "3.5"});
    // Two chapters' tasks the issue names: toggle a mask cell, and watch the softmax saturate as d_k grows.
    CHECK(std::any_of(tour->begin(), tour->end(),
                      [](const TourChapter& c) { return c.task == TourTaskKind::toggle_mask_cell; }));
    CHECK(std::any_of(tour->begin(), tour->end(), [](const TourChapter& c) { return c.playground_experiment; }));
}

TEST_CASE("a well-formed minimal chapter parses, with the defaults for what it leaves out") {
    auto tour = parse_tour(chapter(""), "tour.json");
    REQUIRE(tour);
    REQUIRE(tour->size() == 1);
    const TourChapter& c = tour->front();
    CHECK(c.id == "a");
    CHECK(c.task == TourTaskKind::edit_source);
    CHECK(c.family == "encoder_self");
    CHECK(c.stage == "weights");
    CHECK_FALSE(c.detail);
    CHECK(c.in(Language::korean).look == "l");
    CHECK(c.src_padding == 0);
    CHECK(c.tgt_padding == 0);
    auto padded = parse_tour(chapter(R"(, "src_padding": 2, "tgt_padding": 1)"), "tour.json");
    REQUIRE(padded);
    CHECK(padded->front().src_padding == 2);
    CHECK(padded->front().tgt_padding == 1);
}

TEST_CASE("broken tour files get a one-line error that names the file and the fault") {
    struct Case {
        std::string json, expected;
    };
    const Case cases[] = {
        {"{", "not valid JSON"},
        {R"({"chapters": []})", "non-empty array"},
        {chapter(R"(, "colour": "red")"), "unknown field \"colour\""},
        {R"({"chapters": [{"id": "a", "section": "3.1", "model": "tiny", "view": "attention", "task": "dance",
             "en": {"title": "t", "look": "l", "task": "k", "done": "d"},
             "ko": {"title": "t", "look": "l", "task": "k", "done": "d"}}]})",
         "unknown task \"dance\""},
        {chapter(R"(, "layer": -1)"), "layer must be an integer"},
        {chapter(R"(, "src_padding": "two")"), "src_padding must be an integer"},
        {chapter(R"(, "detail": "yes")"), "detail must be true or false"},
        {chapter(R"(, "slides": ["a", 3])"), "slides must be an array"},
        {R"({"chapters": [{"id": "a", "section": "3.1", "model": "tiny", "view": "attention", "task": "step_past",
             "en": {"title": "t", "look": "l", "task": "k", "done": "d"},
             "ko": {"title": "t", "look": "l", "task": "k", "done": "d"}}]})",
         "step_past needs \"task_step\""},
        {R"({"chapters": [{"id": "a", "section": "3.1", "model": "tiny", "view": "attention", "task": "edit_source",
             "en": {"title": "t", "look": "l", "task": "k", "done": "d"}}]})",
         "chapters[0].ko must be an object"},
        {R"({"chapters": [{"id": "a", "section": "3.1", "model": "tiny", "view": "attention", "task": "edit_source",
             "en": {"title": "t", "look": "", "task": "k", "done": "d"},
             "ko": {"title": "t", "look": "l", "task": "k", "done": "d"}}]})",
         "chapters[0].en.look must not be empty"},
    };
    for (const Case& c : cases) {
        INFO(c.json);
        auto tour = parse_tour(c.json, "tour.json");
        REQUIRE_FALSE(tour);
        const std::string& m = tour.error().message;
        CHECK(m.rfind("tour.json: ", 0) == 0);
        CHECK(m.find('\n') == std::string::npos);
        CHECK(m.find(c.expected) != std::string::npos);
    }
    // The same chapter id twice.
    const std::string one = chapter("");
    const std::string inner = one.substr(one.find('[') + 1, one.rfind(']') - one.find('[') - 1);
    auto twice = parse_tour(R"({"chapters": [)" + inner + "," + inner + "]}", "tour.json");
    REQUIRE_FALSE(twice);
    CHECK(twice.error().message.find("two chapters have the id \"a\"") != std::string::npos);
}
