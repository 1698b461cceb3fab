// Every step of every configuration (every switch combination of our family, GPT-2, BERT with
// and without its MLM head) has an explanation in English and Korean with this trace's
// numbers and every placeholder filled; the English title and formula are the ones core gives
// the step; and every kind the language files hold is produced by one of them.
#include "explain/step_kind.h"
#include "explain_support.h"

#include <set>
#include <sstream>

using namespace attnlab;
using namespace attnlab::test;

namespace {

void require_filled(const std::string& text) {
    INFO(text);
    CHECK_FALSE(text.empty());
    CHECK(text.find_first_of("{}") == std::string::npos);
}

// Explains every step of `s` (which has run) in both languages; adds the kinds seen.
void check_every_step(const Stepper& s, const std::string& model, std::set<std::string>& kinds_seen) {
    for (size_t i = 0; i < s.size(); ++i) {
        const Step& step = s.step(i);
        INFO(model << ": " << step.path);
        auto en = explain_step(bundled_table(Language::english), s, i);
        auto ko = explain_step(bundled_table(Language::korean), s, i);
        REQUIRE(en);
        REQUIRE(ko);
        kinds_seen.insert(en->kind);
        CHECK(ko->kind == en->kind);
        CHECK(en->title == step.title);
        CHECK(en->formula == step.formula);
        CHECK(en->has_numbers);
        CHECK(ko->has_numbers);
        CHECK_FALSE(en->values.empty());
        for (const Explanation* e : {&*en, &*ko})
            for (const std::string* text : {&e->title, &e->formula, &e->what, &e->why, &e->numbers})
                require_filled(*text);
        CHECK(en->numbers != bundled_table(Language::english).pending);
        CHECK(ko->numbers != bundled_table(Language::korean).pending);
        CHECK(has_hangul(ko->title));
        CHECK(has_hangul(ko->what));
        CHECK(has_hangul(ko->why));
        CHECK_FALSE(has_hangul(en->what + en->why + en->numbers));
        CHECK(ko->what != en->what);
        CHECK(ko->values == en->values);  // the same numbers in both languages
    }
}

}  // namespace

TEST_CASE("every step of every configuration is explained in both languages", "[explain]") {
    std::set<std::string> kinds_seen;
    for (const ModelConfig& c : every_switch_combination()) {
        Stepper s = make_stepper(c);
        s.run_all();
        std::ostringstream name;
        name << to_string(c.arch) << " norm_first=" << c.norm_first << " " << to_string(c.activation) << " "
             << to_string(c.positional) << " switches=" << c.final_norm;
        check_every_step(s, name.str(), kinds_seen);
    }
    for (const FamilyModel& m : hugging_face_models()) {
        Stepper s = m.stepper();
        s.run_all();
        check_every_step(s, m.name, kinds_seen);
    }
    // Each kind the language files hold is one some configuration produces.
    CHECK(kinds_seen.size() == std::size(kExplanationKinds));
    for (std::string_view kind : kExplanationKinds) {
        INFO("no configuration produces " << kind);
        CHECK(kinds_seen.count(std::string(kind)));
    }
}

TEST_CASE("a step not run yet is explained without numbers", "[explain]") {
    Stepper s = make_stepper(small_config());
    const auto i = *s.find("decoder.layers.1.cross_attn.scaled");
    s.run_to(i);  // everything before it has run
    for (Language language : {Language::english, Language::korean}) {
        auto e = explain_step(bundled_table(language), s, i);
        REQUIRE(e);
        CHECK_FALSE(e->has_numbers);
        CHECK(e->numbers == bundled_table(language).pending);
        CHECK(e->values.empty());
        CHECK_THAT(e->what, Catch::Contains("√8") && Catch::Contains("2.828"));  // D = 16/2: √D is named
    }
    s.step_forward();
    auto e = explain_step(bundled_table(Language::english), s, i);
    REQUIRE(e);
    CHECK(e->has_numbers);
    CHECK(e->numbers != bundled_table(Language::english).pending);
}

TEST_CASE("sublayers, stacks and attention families are named in the explanation", "[explain]") {
    ModelConfig c = small_config();
    c.norm_first = true;
    Stepper s = make_stepper(c);
    s.run_all();
    auto what = [&](const std::string& path, Language language) {
        auto e = explain_step(bundled_table(language), s, *s.find(path));
        REQUIRE(e);
        return e->what;
    };
    CHECK_THAT(what("decoder.layers.0.residual2", Language::english), Catch::Contains("cross-attention"));
    CHECK_THAT(what("decoder.layers.0.residual3", Language::english), Catch::Contains("feed-forward"));
    CHECK_THAT(what("encoder.layers.1.residual2", Language::english), Catch::Contains("feed-forward"));
    CHECK_THAT(what("decoder.layers.0.norm2", Language::korean), Catch::Contains("교차 어텐션"));
    CHECK_THAT(what("encoder.layers.0.self_attn.q", Language::english),
               Catch::Contains("self-attention of the encoder"));
    CHECK_THAT(what("decoder.layers.1.self_attn.k", Language::korean), Catch::Contains("디코더 마스크드 셀프 어텐션"));
    CHECK_THAT(what("encoder.output", Language::korean), Catch::Contains("인코더"));
    auto why = explain_step(bundled_table(Language::english), s, *s.find("encoder.output"));
    REQUIRE(why);
    CHECK_THAT(why->why, Catch::Contains("memory"));  // the encoder's output feeds cross-attention
}
