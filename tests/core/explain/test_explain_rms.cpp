// An RMSNorm model's residual adds name RMSNorm, not LayerNorm: the step's formula from core, and its
// explanation in both languages, pre-norm (the Llama template as trained) and post-norm (its switch).
#include "explain_support.h"

using namespace attnlab;
using namespace attnlab::test;

namespace {

// The residual add of decoder layer 0's first sublayer, explained in `language`.
Explanation residual_explained(const Stepper& s, Language language) {
    const auto i = s.find("decoder.layers.0.residual1");
    REQUIRE(i);
    auto e = explain_step(bundled_table(language), s, *i);
    REQUIRE(e);
    return *e;
}

Stepper llama_stepper(bool norm_first) {
    const Model llama = fixture_model("hf_llama");
    REQUIRE(llama.config.norm == NormKind::rms_norm);
    ModelConfig c = llama.config;
    c.norm_first = norm_first;
    ForwardInputs in;
    in.tgt_ids = {1, 14, 9, 17, 6, 3};
    auto s = Stepper::create(c, llama.weights, in);
    if (!s) FAIL(s.error().message);
    s->run_all();
    return std::move(*s);
}

}  // namespace

TEST_CASE("an RMSNorm model's pre-norm residual reads x + Sublayer(RMSNorm(x))", "[explain]") {
    const Stepper s = llama_stepper(true);
    CHECK(s.step(*s.find("decoder.layers.0.residual1")).formula == "x + Sublayer(RMSNorm(x))");
    for (Language language : {Language::english, Language::korean}) {
        const Explanation e = residual_explained(s, language);
        CHECK(e.formula == "x + Sublayer(RMSNorm(x))");
        CHECK_THAT(e.what + e.why + e.numbers, !Catch::Contains("LN(") && !Catch::Contains("LayerNorm"));
    }
}

TEST_CASE("an RMSNorm model's post-norm residual says an RMSNorm follows, not a LayerNorm", "[explain]") {
    const Stepper s = llama_stepper(false);
    for (Language language : {Language::english, Language::korean}) {
        const Explanation e = residual_explained(s, language);
        CHECK(e.formula == "x + Sublayer(x)");
        CHECK_THAT(e.why, Catch::Contains("RMSNorm"));
        CHECK_THAT(e.what + e.why, !Catch::Contains("LayerNorm"));
    }
}
