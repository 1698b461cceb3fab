// The bundled tour: its chapters cover the paper's sections 3.1-3.5 in both languages, and a part
// "From the paper to today's models" covers what later models changed; what a chapter needs of its
// model; and the parser's refusals of broken tour files.
#include "teach/tour.h"

#include "../test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace attnlab;
using namespace attnlab::test;

namespace {

std::string chapter(const std::string& extra) {
    const std::string text = R"({"title": "t", "look": "l", "task": "k", "done": "d"})";
    return R"({"chapters": [{"id": "a", "section": "3.1", "model": "tiny", "view": "attention", )"
           R"("task": "edit_source", "en": )" +
           text + R"(, "ko": )" + text + extra + "}]}";
}

// The text outside “…”: an English text quotes a Korean token the model writes (“나”) that way.
std::string unquoted(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const size_t open = text.find("“", i);
        out += text.substr(i, open == std::string::npos ? std::string::npos : open - i);
        if (open == std::string::npos) break;
        const size_t close = text.find("”", open);
        if (close == std::string::npos) break;
        i = close + std::string("”").size();
    }
    return out;
}

}  // namespace

TEST_CASE("the bundled tour covers sections 3.1 to 3.5 and training (5), each chapter in English and Korean") {
    auto tour = load_tour(ATTNLAB_SOURCE_DIR "/assets");
    REQUIRE(tour);
    REQUIRE(tour->size() == 17);
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
            CHECK(has_hangul(unquoted(t.title + t.look + t.task + t.done)) == (lang == Language::korean));
        }
        if (c.task == TourTaskKind::step_past) CHECK(!c.task_step.empty());
    }
    CHECK(sections == std::set<std::string>{"3.1", "3.2.1", "3.2.2", "3.2.3", "3.3", "3.4", "3.5", "5"});
    // The induction chapter (issue 35) scrubs the bundled induction model's training history.
    CHECK(std::any_of(tour->begin(), tour->end(), [](const TourChapter& c) {
        return c.task == TourTaskKind::scrub_checkpoint && c.model == "induction.safetensors" && c.view == "training";
    }));
    // "Which head did it?" (issue 34) asks for the head with the largest share of its metric, switched off.
    CHECK(std::any_of(tour->begin(), tour->end(), [](const TourChapter& c) {
        return c.task == TourTaskKind::ablate_strongest_head && c.metric == "logit-diff:32,34@0" && c.view == "output";
    }));
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
        {chapter(R"(, "metric": "logit:7")"), "chapters[0].metric: "},
        {chapter(R"(, "piece": "everything")"), "chapters[0].piece: unknown piece"},
        {R"({"chapters": [{"id": "a", "section": "3.1", "model": "tiny", "view": "output",
             "task": "ablate_strongest_head",
             "en": {"title": "t", "look": "l", "task": "k", "done": "d"},
             "ko": {"title": "t", "look": "l", "task": "k", "done": "d"}}]})",
         "ablate_strongest_head needs \"metric\""},
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

TEST_CASE("the part on today's models: six chapters in a row, each on what a later model changed") {
    auto tour = load_tour(ATTNLAB_SOURCE_DIR "/assets");
    REQUIRE(tour);
    std::vector<const TourChapter*> today;
    for (const TourChapter& c : *tour)
        if (c.part == "today") today.push_back(&c);
    REQUIRE(today.size() == 6);
    // Together, in order, after the paper's chapters.
    CHECK(today.front() == &(*tour)[8]);
    std::set<TourNeed> needs;
    std::set<TourTaskKind> tasks;
    for (size_t i = 0; i < today.size(); ++i) {
        const TourChapter& c = *today[i];
        INFO(c.id);
        CHECK(c.part_index == static_cast<int>(i));
        CHECK(c.part_size == 6);
        CHECK(c.part_title_in(Language::english) == "From the paper to today's models");
        CHECK(has_hangul(c.part_title_in(Language::korean)));
        CHECK(c.model == "llama-tiny");
        REQUIRE_FALSE(c.needs.empty());
        CHECK(c.needs.front() == TourNeed::decoder_only);  // every step name is the decoder's
        needs.insert(c.needs.begin(), c.needs.end());
        tasks.insert(c.task);
    }
    // Pre-norm, RMSNorm, RoPE, SwiGLU, grouped-query attention and decoder-only: each a chapter's need.
    CHECK(needs == std::set<TourNeed>{TourNeed::decoder_only, TourNeed::pre_norm, TourNeed::rms_norm, TourNeed::rotary,
                                      TourNeed::gated_ffn, TourNeed::grouped_query});
    CHECK(tasks.count(TourTaskKind::change_rope_rows) == 1);
    CHECK(tasks.count(TourTaskKind::switch_norm_placement) == 1);
    // The paper's chapters run on their bundled model as is, but cross-attention's, which a translator keeps.
    for (const TourChapter& c : *tour) {
        if (!c.part.empty()) continue;
        INFO(c.id);
        CHECK(c.needs ==
              (c.id == "cross-attention" ? std::vector<TourNeed>{TourNeed::translator} : std::vector<TourNeed>{}));
    }
}

TEST_CASE("a config meets a chapter's needs only when it has each of them") {
    ModelConfig paper;  // encoder-decoder, post-LN LayerNorm, sinusoidal, ReLU FFN, H_kv = H
    for (TourNeed n : {TourNeed::decoder_only, TourNeed::pre_norm, TourNeed::rms_norm, TourNeed::rotary,
                       TourNeed::gated_ffn, TourNeed::grouped_query}) {
        INFO(tour_need_name(n));
        CHECK_FALSE(meets(paper, n));
    }
    ModelConfig llama = paper;
    llama.arch = Arch::decoder_only;
    llama.norm_first = true;
    llama.norm = NormKind::rms_norm;
    llama.positional = Positional::rotary;
    llama.gated_ffn = true;
    llama.n_heads = 4;
    llama.n_kv_heads = 2;
    const std::vector<TourNeed> all = {TourNeed::decoder_only, TourNeed::pre_norm,  TourNeed::rms_norm,
                                       TourNeed::rotary,       TourNeed::gated_ffn, TourNeed::grouped_query};
    CHECK_FALSE(first_unmet(llama, all));
    llama.n_kv_heads = 4;  // every query head its own K and V: multi-head, not grouped
    REQUIRE(first_unmet(llama, all));
    CHECK(*first_unmet(llama, all) == TourNeed::grouped_query);
    CHECK(*first_unmet(paper, all) == TourNeed::decoder_only);
    CHECK(meets(paper, TourNeed::translator));
    CHECK_FALSE(meets(llama, TourNeed::translator));
}

TEST_CASE("parts and needs parse, and broken ones are refused in one line") {
    const std::string text = R"({"title": "t", "look": "l", "task": "k", "done": "d"})";
    auto chapter_in = [&](const std::string& id, const std::string& extra) {
        return R"({"id": ")" + id +
               R"(", "section": "3.1", "model": "tiny", "view": "attention", "task": "edit_source", )"
               R"("en": )" +
               text + R"(, "ko": )" + text + extra + "}";
    };
    const std::string parts = R"("parts": [{"id": "p", "en": "Part", "ko": "부"}], )";
    auto ok = parse_tour("{" + parts + R"("chapters": [)" + chapter_in("a", "") + "," +
                             chapter_in("b", R"(, "part": "p", "needs": ["rotary", "grouped_query"])") + "," +
                             chapter_in("c", R"(, "part": "p")") + "]}",
                         "tour.json");
    REQUIRE(ok);
    REQUIRE(ok->size() == 3);
    CHECK((*ok)[0].part.empty());
    CHECK((*ok)[1].part_title_in(Language::korean) == "부");
    CHECK((*ok)[1].part_index == 0);
    CHECK((*ok)[2].part_index == 1);
    CHECK((*ok)[1].part_size == 2);
    CHECK((*ok)[2].part_size == 2);
    CHECK((*ok)[1].needs == std::vector<TourNeed>{TourNeed::rotary, TourNeed::grouped_query});

    struct Case {
        std::string json, expected;
    };
    const Case cases[] = {
        {"{" + parts + R"("chapters": [)" + chapter_in("a", R"(, "needs": ["wings"])") + "]}",
         "chapters[0].needs must be an array of"},
        {"{" + parts + R"("chapters": [)" + chapter_in("a", R"(, "needs": "rotary")") + "]}",
         "chapters[0].needs must be an array of"},
        {"{" + parts + R"("chapters": [)" + chapter_in("a", R"(, "part": "q")") + "]}", "unknown part \"q\""},
        {"{" + parts + R"("chapters": [)" + chapter_in("a", R"(, "part": "p")") + "," + chapter_in("b", "") + "," +
             chapter_in("c", R"(, "part": "p")") + "]}",
         "the chapters of part \"p\" must stand together"},
        {R"({"parts": [{"id": "p", "en": "Part"}], "chapters": [)" + chapter_in("a", "") + "]}",
         "\"parts\" must be an array"},
        {R"({"parts": [{"id": "p", "en": "A", "ko": "가"}, {"id": "p", "en": "B", "ko": "나"}], "chapters": [)" +
             chapter_in("a", "") + "]}",
         "two parts have the id \"p\""},
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
}
