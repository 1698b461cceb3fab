// The residual view's formulas carry Granite's multipliers from its mechanisms: the embeddings ×m_emb and each
// sublayer's write ×m, with their values, and no m for a model without them.
#include "panels/stream_formula_text.h"

#include "hf/open_model.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

Stepper fixture_stepper(const std::string& fixture) {
    auto loaded = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/" + fixture);
    REQUIRE(loaded);
    ForwardInputs inputs;
    inputs.tgt_ids = {3, 17, 42};
    auto stepper = Stepper::create(loaded->model.config, loaded->model.weights, inputs);
    REQUIRE(stepper);
    return std::move(*stepper);
}

}  // namespace

TEST_CASE("the residual view's formulas show Granite's m_emb and m, as its steps compute them", "[residual]") {
    const Stepper granite = fixture_stepper("hf_granitemoe");  // embedding_multiplier 3, residual_multiplier 0.4
    const std::vector<StreamFormulaLine> lines = stream_formula_lines(granite, Stack::decoder);
    REQUIRE(lines.size() == 2);
    CHECK(std::string(lines[0].label) == "Embedding");
    CHECK(lines[0].formula == "x_emb = E_tgt[token]·m_emb,  m_emb = 3");
    CHECK(std::string(lines[1].label) == "Pre-norm");
    CHECK(lines[1].formula == "x ← x + m·Sublayer(RMSNorm(x)),  m = 0.4");
    // The residual add steps compute what the line says.
    const auto add = granite.find(StepId::sublayer_at(StepKind::residual, Stack::decoder, 0, 1));
    REQUIRE(add);
    CHECK("x ← " + granite.step(*add).formula + ",  m = 0.4" == lines[1].formula);

    const Stepper llama = fixture_stepper("hf_llama");
    const std::vector<StreamFormulaLine> plain = stream_formula_lines(llama, Stack::decoder);
    REQUIRE(plain.size() == 1);
    CHECK(plain[0].formula == "x ← x + Sublayer(RMSNorm(x))");
}
