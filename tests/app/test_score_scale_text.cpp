// How the attention view writes the scaled stage (app/model/score_scale_text.h): the model's own multiplier of QKᵀ,
// not the paper's ÷√D, for T5 (1) and Gemma (query_pre_attn_scalar^−½).
#include "score_scale_text.h"

#include "hf/open_model.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

ScoreScaleText of_fixture(const std::string& name) {
    auto loaded = open_model(kFixtures + name);
    if (!loaded) FAIL(loaded.error().message);
    return score_scale_text(loaded->model.config);
}

ScoreScaleText of_scale(float s) {
    ModelConfig c;
    c.attention_scale = s;
    return score_scale_text(c);
}

}  // namespace

TEST_CASE("the scaled stage is written with the model's own multiplier of QKᵀ", "[score_scale_text]") {
    CHECK(of_fixture("hf_llama").factor == "/√D");  // the paper's
    CHECK(of_fixture("hf_llama").tab == "÷√D");
    CHECK(of_fixture("hf_t5").factor == "");  // T5 has no ÷√D
    CHECK(of_fixture("hf_t5").tab == "×1");
    CHECK(of_fixture("hf_gemma3").factor == "/√12");  // query_pre_attn_scalar 12, head_dim 8
    CHECK(of_fixture("hf_gemma2").tab == "÷√24");
    CHECK(of_scale(1.0f / 128.0f).factor == "/128");  // a whole divisor (Granite's attention_multiplier)
    CHECK(of_scale(0.3f).factor == "·0.3");
    CHECK(of_scale(0.3f).tab == "×0.3");
}

TEST_CASE("the heading's scores are soft-capped as c·tanh(·/c) where the model caps them", "[score_scale_text]") {
    auto loaded = open_model(kFixtures + "hf_gemma2");  // attn_logit_softcapping 5, query_pre_attn_scalar 24
    if (!loaded) FAIL(loaded.error().message);
    CHECK(score_formula(loaded->model.config) == "5·tanh(QKᵀ/√24 / 5)");
    auto gemma3 = open_model(kFixtures + "hf_gemma3");  // Gemma 3 drops the cap
    if (!gemma3) FAIL(gemma3.error().message);
    CHECK(score_formula(gemma3->model.config) == "QKᵀ/√12");
    ModelConfig c;
    CHECK(score_formula(c) == "QKᵀ/√D");
    c.attention_softcap = 50.0f;
    CHECK(score_formula(c) == "50·tanh(QKᵀ/√D / 50)");
}
