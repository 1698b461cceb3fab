// Language files and templates: a bad file or template gives a one-line error, never a crash.
#include "explain/number_format.h"
#include "explain/step_kind.h"
#include "explain/template_fill.h"
#include "explain_support.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace attnlab;
using namespace attnlab::test;
using json = nlohmann::json;

namespace {

json bundled_json(const char* code) {
    std::ifstream in(std::string(ATTNLAB_SOURCE_DIR) + "/assets/explanations/" + code + ".json");
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

// Parses `text` as the English file and returns its error, which must be one line naming the source.
std::string error_of(const std::string& text) {
    auto t = parse_explanation_table(text, Language::english, "en.json");
    if (t) return "(no error)";
    const std::string& m = t.error().message;
    CHECK(m.find('\n') == std::string::npos);
    CHECK(m.rfind("en.json: ", 0) == 0);
    return m;
}

}  // namespace

TEST_CASE("both bundled language files load and cover every step kind", "[explain]") {
    for (Language language : {Language::english, Language::korean}) {
        const ExplanationTable& t = bundled_table(language);
        CHECK(t.language == language);
        CHECK(t.steps.size() == std::size(kExplanationKinds));
        CHECK_FALSE(t.pending.empty());
    }
    CHECK(bundled_table(Language::korean).steps.at("attn.scaled").why !=
          bundled_table(Language::english).steps.at("attn.scaled").why);
}

TEST_CASE("a malformed language file gives a one-line error", "[explain]") {
    const json good = bundled_json("en");
    REQUIRE(parse_explanation_table(good.dump(), Language::english, "en.json"));
    auto with = [&](auto&& edit) {
        json j = good;
        edit(j);
        return error_of(j.dump());
    };
    CHECK_THAT(error_of(""), Catch::Contains("not valid JSON"));
    CHECK_THAT(error_of("{\"language\": \"en\",\n\"steps\": {"), Catch::Contains("not valid JSON"));
    CHECK_THAT(error_of("[1, 2]"), Catch::Contains("must be a JSON object"));
    CHECK_THAT(error_of("{\"a\": 1e999}"), Catch::Contains("not valid JSON"));
    CHECK_THAT(error_of(std::string("{\"language\": \"en\xff\"}")), Catch::Contains("not valid JSON"));
    CHECK_THAT(with([](json& j) { j["language"] = "ko"; }), Catch::Contains("\"language\" must be \"en\""));
    CHECK_THAT(with([](json& j) { j["extra"] = 1; }), Catch::Contains("unknown field \"extra\""));
    CHECK_THAT(with([](json& j) { j.erase("pending"); }), Catch::Contains("\"pending\""));
    CHECK_THAT(with([](json& j) { j["terms"] = "x"; }), Catch::Contains("\"terms\" must be an object"));
    CHECK_THAT(with([](json& j) { j["terms"]["encoder"] = 3; }), Catch::Contains("terms.\"encoder\" must be a string"));
    CHECK_THAT(with([](json& j) { j["steps"].erase("attn.scaled"); }),
               Catch::Contains("no texts for step kind \"attn.scaled\""));
    CHECK_THAT(with([](json& j) { j["steps"]["attn.scaledd"] = j["steps"]["attn.scaled"]; }),
               Catch::Contains("unknown step kind \"attn.scaledd\""));
    CHECK_THAT(with([](json& j) { j["steps"]["probs"].erase("why"); }),
               Catch::Contains("steps.probs: missing \"why\""));
    CHECK_THAT(with([](json& j) { j["steps"]["probs"]["why"] = ""; }),
               Catch::Contains("steps.probs.why must be a non-empty string"));
    CHECK_THAT(with([](json& j) { j["steps"]["probs"]["what"] = 7; }), Catch::Contains("steps.probs.what must be"));
    CHECK_THAT(with([](json& j) { j["steps"]["probs"]["note"] = "x"; }),
               Catch::Contains("steps.probs: unknown field \"note\""));
    CHECK_THAT(with([](json& j) { j["steps"]["probs"]["numbers"] = "p = {top_p"; }),
               Catch::Contains("steps.probs.numbers: unclosed {"));
    CHECK_THAT(with([](json& j) { j["steps"]["probs"]["numbers"] = "p} = {top_p}"; }), Catch::Contains("} without {"));
    CHECK_THAT(with([](json& j) { j["steps"]["probs"]["numbers"] = "{top p}"; }),
               Catch::Contains("bad placeholder {top p}"));
    CHECK_THAT(with([](json& j) { j["steps"]["probs"]["numbers"] = "{a\nb}"; }), Catch::Contains("bad placeholder"));
    CHECK_THAT(with([](json& j) { j["steps"]["pro\nbs"] = 1; }), Catch::Contains("unknown step kind \"pro\\nbs\""));
}

TEST_CASE("a missing language file is an error naming its path", "[explain]") {
    auto t = load_explanation_table("/nonexistent/assets", Language::korean);
    REQUIRE_FALSE(t);
    CHECK_THAT(t.error().message, Catch::Contains("/nonexistent/assets/explanations/ko.json"));
}

TEST_CASE("a template naming an unknown placeholder or term fails that step only", "[explain]") {
    ExplanationTable t = bundled_table(Language::english);
    t.steps.at("attn.scaled").numbers = "q·k = {no_such_value}";
    t.terms.erase("decoder");
    Stepper s = make_stepper(small_config());
    s.run_all();
    auto scaled = explain_step(t, s, *s.find("encoder.layers.0.self_attn.scaled"));
    REQUIRE_FALSE(scaled);
    CHECK(scaled.error().message == "en attn.scaled.numbers: unknown placeholder {no_such_value}");
    auto output = explain_step(t, s, *s.find("decoder.output"));  // its title names the decoder
    REQUIRE_FALSE(output);
    CHECK_THAT(output.error().message, Catch::Contains("{stack}"));
    CHECK(explain_step(t, s, *s.find("encoder.layers.0.self_attn.scores")));
}

TEST_CASE("templates fill every placeholder and reject malformed ones", "[explain]") {
    const PlaceholderLookup lookup = [](std::string_view name) -> std::optional<std::string> {
        if (name == "a") return "1";
        if (name == "long_name_2") return "two";
        return std::nullopt;
    };
    CHECK(*fill_template("x = {a} + {long_name_2}{a}", lookup) == "x = 1 + two1");
    CHECK(*fill_template("no placeholders: √D ·", lookup) == "no placeholders: √D ·");
    CHECK(fill_template("{b}", lookup).error().message == "unknown placeholder {b}");
    CHECK_FALSE(fill_template("{}", lookup));
    CHECK_FALSE(fill_template("{a", lookup));
    CHECK_FALSE(fill_template("a}", lookup));
    CHECK(check_template("{anything} goes"));
    CHECK_FALSE(check_template("{bad-name}"));
}

TEST_CASE("a step's kind comes from its record and the config", "[explain]") {
    ModelConfig c = small_config();
    auto kind = [&](const StepId& id) { return explanation_kind(StepRecord::of(id, c), c); };
    CHECK(kind(StepId::attention_at({AttentionUse::cross, 0}, AttentionStage::v)) == "cross_attn.v");
    CHECK(kind(StepId::attention_at({AttentionUse::encoder_self, 1}, AttentionStage::weights)) == "attn.weights");
    CHECK(kind(StepId::sublayer_at(StepKind::norm, Stack::decoder, 1, 3)) == "norm_post_ln");
    CHECK(kind(StepId::ffn_at(Stack::decoder, 1, FfnPart::activation)) == "ffn.relu");
    CHECK(kind(StepId::mask_of(AttentionUse::cross)) == "mask.cross");
    CHECK(kind(StepId::of(StepKind::padding_mask, Stack::decoder)) == "mask.tgt_padding");
    CHECK(kind(StepId::head(StepKind::probs, c)) == "probs");
    c.norm_first = true;
    c.activation = Activation::gelu_tanh;
    CHECK(kind(StepId::sublayer_at(StepKind::norm, Stack::decoder, 1, 3)) == "norm_pre_ln");
    CHECK(kind(StepId::head(StepKind::head_activation, c)) == "mlm_head.gelu_tanh");
    CHECK(kind(StepId::head(StepKind::head_norm, c)) == "mlm_head.norm");  // not a sublayer's norm
    c.arch = Arch::encoder_only;
    c.n_decoder_layers = 0;
    CHECK(kind(StepId::head(StepKind::probs, c)) == "probs_masked");  // the token at each position
}

TEST_CASE("numbers are shown with a few decimals, tiny ones with two significant digits", "[explain]") {
    CHECK(format_number(3.14159) == "3.142");
    CHECK(format_number(25.613) == "25.61");
    CHECK(format_number(-123.45) == "-123.5");
    CHECK(format_number(123456.0) == "123456");
    CHECK(format_number(-0.0000001) == "-1e-07");
    CHECK(format_number(0.00042) == "0.00042");
    CHECK(format_number(0.0) == "0.000");
    CHECK(format_number(-0.0002) == "-0.0002");
    CHECK(format_number(-0.0004999) == "-0.0005");
    CHECK(format_number(-0.00051) == "-0.001");
    CHECK(format_number(std::nan("")) == "nan");
    CHECK(format_operand(-0.757) == "(-0.757)");
    CHECK(format_operand(0.757) == "0.757");
    CHECK(format_percent(0.95) == "95.0");
}
