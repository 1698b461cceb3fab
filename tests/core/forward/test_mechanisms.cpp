// The mechanisms (core/forward/mechanisms): each reads its own switch and makes its steps, their backward, its
// explanation kinds and numbers. Checked against the formulas of the study notes, computed here by hand.
#include "forward/mechanisms/architecture.h"
#include "forward/mechanisms/feed_forward.h"
#include "forward/mechanisms/head_norm.h"
#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/positions.h"
#include "ops/positional.h"
#include "../test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

using namespace attnlab;
using attnlab::test::small_config;

namespace {

double number(const ExplainNumbers& numbers, const std::string& placeholder) {
    for (const ExplainNumber& n : numbers)
        if (placeholder == n.placeholder) return n.value;
    FAIL("no number named " << placeholder);
    return 0.0;
}

ModelConfig llama_like() {
    ModelConfig c = small_config();
    c.arch = Arch::decoder_only;
    c.family = Family::qwen3;
    c.norm = NormKind::rms_norm;
    c.norm_first = true;
    c.gated_ffn = true;
    c.activation = Activation::silu;
    c.positional = Positional::rotary;
    c.qk_norm = true;
    c.n_heads = 4;
    c.n_kv_heads = 2;
    return c;
}

}  // namespace

TEST_CASE("The norm mechanism computes, names and explains LayerNorm and RMSNorm", "[mechanisms]") {
    ModelConfig c = small_config();
    c.layer_norm_eps = 1e-5f;
    const Tensor x = Tensor::from_matrix(Mat{{1.0f, 2.0f, 4.0f, -3.0f}});  // (1, 4)
    auto vector = [](std::vector<float> values) {  // (4,)
        Tensor t({static_cast<int64_t>(values.size())});
        std::copy(values.begin(), values.end(), t.data.begin());
        return t;
    };
    Weights w;
    w.set("g", vector({1.0f, 2.0f, 1.0f, 0.5f}));
    w.set("b", vector({0.0f, 1.0f, 0.0f, 0.0f}));
    const NormParams params{"g", "b"};

    SECTION("LayerNorm: (x − mean)/√(var + ε)·γ + β") {
        const NormMechanism norm(c);
        const Tensor y = norm.forward(w, params, x);
        const double mean = 1.0, var = (0.0 + 1.0 + 9.0 + 16.0) / 4.0;  // x − mean = 0, 1, 3, −4
        CHECK(y.data[1] == Approx(1.0 / std::sqrt(var + 1e-5) * 2.0 + 1.0));
        CHECK(y.data[3] == Approx(-4.0 / std::sqrt(var + 1e-5) * 0.5));
        const ExplainNumbers n = norm.row_numbers(x.row(0), y.row(0));
        CHECK(number(n, "mean") == Approx(mean));
        CHECK(number(n, "std") == Approx(std::sqrt(var + 1e-5)));
        CHECK(std::string(norm.sublayer_kind()) == (c.norm_first ? "norm_pre_ln" : "norm_post_ln"));
        CHECK(norm.residual_formula() == (c.norm_first ? "x + Sublayer(LN(x))" : "x + Sublayer(x)"));
    }
    SECTION("RMSNorm: x/√(mean(x²) + ε)·γ, no β") {
        c.norm = NormKind::rms_norm;
        c.norm_first = true;
        const NormMechanism norm(c);
        const Tensor y = norm.forward(w, params, x);
        const double rms = std::sqrt((1.0 + 4.0 + 16.0 + 9.0) / 4.0 + 1e-5);
        CHECK(y.data[1] == Approx(2.0 / rms * 2.0));  // β is not read
        const ExplainNumbers n = norm.row_numbers(x.row(0), y.row(0));
        CHECK(number(n, "rms") == Approx(rms));
        CHECK(std::string(norm.name()) == "RMSNorm");
        CHECK(std::string(norm.residual_kind()) == "residual_pre_rms");
        CHECK(norm.stream_formula() == "x ← x + Sublayer(RMSNorm(x))");
    CHECK(norm.stream_formula("m·") == "x ← x + m·Sublayer(RMSNorm(x))");
        CHECK(norm.sublayer_title(2) == "RMSNorm 2 (pre-norm)");
        const PlacedStep step = norm.step(StepId::of(StepKind::stack_output, Stack::decoder), "Final", {}, params);
        CHECK(step.step.params == std::vector<std::string>{"g"});
    }
}

TEST_CASE("The positional mechanism adds, rotates or gives nothing, and explains a sinusoid pair",
          "[mechanisms]") {
    ModelConfig c = small_config();
    c.d_model = 8;
    const EmbeddingParams params = embedding_params(c, Stack::encoder);
    {
        const PositionMechanism positions(c);  // the paper's interleaved sinusoids
        REQUIRE(positions.added_to_embeddings());
        const auto step = positions.embedding_step(Stack::encoder, params, kSrcIdsControl);
        REQUIRE(step);
        CHECK(step->id == StepId::of(StepKind::position, Stack::encoder));
        const Tensor pe = sinusoidal_encoding(5, 8);
        // Column 3 is the cosine of pair 1: angle pos / 10000^(2/8).
        const ExplainNumbers n = positions.position_numbers(pe, 4, 3);
        const double angle = 4.0 / std::pow(10000.0, 2.0 / 8.0);
        CHECK(number(n, "two_i") == 2);
        CHECK(number(n, "cos_col") == 3);
        CHECK(number(n, "angle") == Approx(angle));
        CHECK(number(n, "cos") == Approx(std::cos(angle)).margin(1e-6));
        CHECK(number(n, "sin") == Approx(std::sin(angle)).margin(1e-6));
    }
    c.sinusoid_layout = SinusoidLayout::halves;
    CHECK(std::string(PositionMechanism(c).position_kind()) == "pos_sinusoidal_halves");
    // Halves: column 5 of 8 is the cosine of pair 1, whose sine is column 1.
    CHECK(number(PositionMechanism(c).position_numbers(sinusoidal_encoding(5, 8, SinusoidLayout::halves), 2, 5),
                 "sin_col") == 1);
    c.positional = Positional::rotary;
    const PositionMechanism rotary(c);
    CHECK_FALSE(rotary.embedding_step(Stack::encoder, params, kSrcIdsControl));
    CHECK(rotary.rotates_queries_and_keys());
    CHECK(std::string(rotary.token_embedding_kind()) == "embed_rotary");
    const PlacedStep turn = rotary.rotation_step({AttentionUse::encoder_self, 0}, AttentionStage::k_rot,
                                                 StepId::attention_at({AttentionUse::encoder_self, 0},
                                                                      AttentionStage::k));
    CHECK(turn.id.stage == AttentionStage::k_rot);
    CHECK(turn.step.backward);
    c.positional = Positional::none;
    CHECK_FALSE(PositionMechanism(c).embedding_step(Stack::encoder, params, kSrcIdsControl));
    CHECK_FALSE(PositionMechanism(c).added_to_embeddings());
}

TEST_CASE("The feed-forward mechanism makes three steps, or five when gated, ending at ffn.out", "[mechanisms]") {
    ModelConfig c = small_config();
    const StepId input = StepId::sublayer_at(StepKind::norm, Stack::encoder, 0, 1);
    const FeedForwardMechanism plain(c);
    const auto steps = plain.steps(Stack::encoder, 0, layer_params(c, Stack::encoder, 0), input);
    REQUIRE(steps.size() == 3);
    CHECK(steps.back().id == StepId::ffn_at(Stack::encoder, 0, FfnPart::out));
    CHECK(plain.kind(FfnPart::out) == "ffn.out");
    CHECK(plain.kind(FfnPart::activation) == "ffn.relu");
    CHECK(std::string(plain.bias_symbol(FfnPart::out)) == "b_2");

    const ModelConfig l = llama_like();
    const FeedForwardMechanism gated(l);
    const auto gated_steps = gated.steps(Stack::decoder, 1, layer_params(l, Stack::decoder, 1), input);
    REQUIRE(gated_steps.size() == 5);
    CHECK(gated_steps[3].id == StepId::ffn_at(Stack::decoder, 1, FfnPart::gated));
    CHECK(gated_steps[3].step.inputs ==
          std::vector<StepId>{StepId::ffn_at(Stack::decoder, 1, FfnPart::activation),
                              StepId::ffn_at(Stack::decoder, 1, FfnPart::up)});
    CHECK(gated.kind(FfnPart::out) == "ffn.down");
    CHECK(gated.kind(FfnPart::activation) == "ffn.silu");
    // h = a ⊙ u: the largest |h| is column 2 (−6); one gate entry of four is under 0.1 in size.
    const Tensor a = Tensor::from_matrix(Mat{{0.05f, 1.0f, -2.0f, 0.5f}});
    const Tensor u = Tensor::from_matrix(Mat{{1.0f, 1.0f, 3.0f, 2.0f}});
    const Tensor h = Tensor::from_matrix(Mat{{0.05f, 1.0f, -6.0f, 1.0f}});
    const ExplainNumbers n = gated.gate_numbers(a.row(0), u.row(0), h.row(0));
    CHECK(number(n, "col") == 2);
    CHECK(number(n, "h") == Approx(-6.0));
    CHECK(number(n, "shut_pct") == Approx(0.25));
}

TEST_CASE("Each mechanism describes itself in the architecture line", "[mechanisms]") {
    CHECK(describe_architecture(llama_like()) ==
          "decoder_only, pre-norm RMSNorm, gated FFN (silu), rotary positions (θ 10000), 4 query heads sharing 2 K/V "
          "heads, RMSNorm of Q and K per head");
    ModelConfig paper = small_config();
    paper.norm_first = false;
    CHECK(describe_architecture(paper) == "encoder_decoder, post-LN, relu FFN, sinusoidal positions");
    CHECK(std::string(HeadNormMechanism::kind(AttentionStage::k_norm)) == "attn.k_norm");
    CHECK_FALSE(HeadNormMechanism(paper).on());
}
