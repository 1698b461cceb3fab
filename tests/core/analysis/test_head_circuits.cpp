// A head's QK and OV circuits from its weights alone, for the Hugging Face fixtures, against
// tests/golden/make_hf_golden.py's PyTorch (analysis.safetensors "qk.scores", "ov.logits").
#include "analysis/head_circuits.h"
#include "hf/open_model.h"
#include "io/safetensors.h"
#include "model.h"
#include "stepper.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";
constexpr int kLayer = 1, kHead = 2;  // make_hf_golden.py's CIRCUIT_LAYER, CIRCUIT_HEAD

// Within 1e-4 of PyTorch, relative to the value's size above 1.
void check_matches(const Mat& got, const Tensor& want) {
    REQUIRE(got.rows() == want.dim(0));
    REQUIRE(got.cols() == want.dim(1));
    float worst = 0.0f;
    for (Eigen::Index r = 0; r < got.rows(); ++r)
        for (Eigen::Index c = 0; c < got.cols(); ++c) {
            const float w = want.data[r * want.dim(1) + c];
            worst = std::max(worst, std::abs(got(r, c) - w) / std::max(1.0f, std::abs(w)));
        }
    CHECK(worst < 1e-4f);
}

void check_circuits(const std::string& fixture, Stack stack) {
    auto loaded = open_model(kFixtures + fixture);
    if (!loaded) FAIL(loaded.error().message);
    auto analysis = io::read_safetensors(kFixtures + fixture + "/analysis.safetensors");
    if (!analysis) FAIL(analysis.error().message);
    const Model& m = loaded->model;
    const HeadRef ref{stack, kLayer, kHead};
    const std::vector<int> all = every_token(m.config.output_vocab_size());

    auto qk = qk_circuit(m.config, m.weights, ref, all, all);
    if (!qk) FAIL(qk.error().message);
    check_matches(*qk, analysis->tensors.at("qk.scores"));
    auto ov = ov_circuit(m.config, m.weights, ref, all);
    if (!ov) FAIL(ov.error().message);
    check_matches(*ov, analysis->tensors.at("ov.logits"));

    // A chosen list reads the same numbers, in the list's order, repeats included.
    const std::vector<int> queries = {7, 0, 7}, keys = {49, 3};
    auto part = qk_circuit(m.config, m.weights, ref, queries, keys);
    REQUIRE(part);
    for (size_t i = 0; i < queries.size(); ++i)
        for (size_t j = 0; j < keys.size(); ++j)
            CHECK((*part)(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) ==
                  Approx((*qk)(queries[i], keys[j])).margin(1e-5));
}

}  // namespace

TEST_CASE("the QK and OV circuits of a GPT-2 head match PyTorch within 1e-4", "[analysis][hf]") {
    check_circuits("hf_gpt2", Stack::decoder);
}

TEST_CASE("the QK and OV circuits of a BERT head read through the embedding LayerNorm, as PyTorch", "[analysis][hf]") {
    check_circuits("hf_bert", Stack::encoder);
}

TEST_CASE("head circuits refuse heads and tokens that are not there", "[analysis]") {
    auto loaded = open_model(kFixtures + "hf_gpt2");
    REQUIRE(loaded);
    const Model& m = loaded->model;  // 2 layers, 4 heads, 50 tokens, decoder only
    const auto message = [&](const HeadRef& ref, std::vector<int> ids) {
        auto r = qk_circuit(m.config, m.weights, ref, ids, ids);
        return r ? std::string("ok") : r.error().message;
    };
    CHECK(message({Stack::decoder, 2, 0}, {1}) == "layer 2 is outside the decoder's layers 0..1");
    CHECK(message({Stack::decoder, 0, 4}, {1}) == "head 4 is outside heads 0..3");
    CHECK(message({Stack::encoder, 0, 0}, {1}) == "this model has no encoder");
    CHECK(message({Stack::decoder, 0, 0}, {1, 50}) == "token id 50 is outside the vocabulary 0..49");

    // An encoder-decoder's encoder does not feed the output head: it has a QK circuit but no OV.
    auto paper = make_random_model("tiny", 3, std::nullopt, std::nullopt, TokenizerKind::character);
    REQUIRE(paper);
    CHECK(qk_circuit(paper->config, paper->weights, {Stack::encoder, 0, 0}, {4, 5}, {6}));
    CHECK(ov_circuit(paper->config, paper->weights, {Stack::encoder, 0, 0}, {4}).error().message ==
          "the OV circuit is read through the output head: choose a head of the last stack");
    auto decoder_ov = ov_circuit(paper->config, paper->weights, {Stack::decoder, 1, 1}, {4, 5});
    REQUIRE(decoder_ov);
    CHECK(decoder_ov->cols() == paper->config.tgt_vocab_size);
}

TEST_CASE("a rotary head's QK circuit at offset i − j is layer 0's scaled score of query i and key j",
          "[circuits][llama]") {
    // Layer 0 of a pre-norm model reads the token embeddings alone, so the circuit (which leaves positions out but
    // RoPE's offset) must give the trace's scores, which test_hf_llama_golden checks against PyTorch. hf_llama has
    // two query heads per K head; hf_qwen3 normalises each head of Q and K; neither has biases. hf_gemma3's layer 0
    // is a local layer, turned with its local base (10⁴, not the global 10⁶), and scaled by query_pre_attn_scalar^−½
    // (12^−½, not 1/√8); hf_smollm3's layer 0 rotates (its NoPE layer is layer 3).
    for (const char* fixture : {"hf_llama", "hf_qwen3", "hf_gemma3", "hf_smollm3"}) {
        INFO(fixture);
        auto loaded = open_model(kFixtures + fixture);
        if (!loaded) FAIL(loaded.error().message);
        const Model& m = loaded->model;
        ForwardInputs in;
        in.tgt_ids = {1, 14, 9, 17, 6, 9};
        auto s = Stepper::create(m.config, m.weights, in);
        REQUIRE(s);
        s->run_all();
        const Tensor& scaled = *s->output("decoder.layers.0.self_attn.scaled");  // (H, T, T)
        const auto T = static_cast<int64_t>(in.tgt_ids.size());
        for (int h = 0; h < m.config.n_heads; ++h)
            for (int64_t i = 0; i < T; ++i)
                for (int64_t j = 0; j <= i; ++j) {
                    auto score = qk_circuit(m.config, m.weights, {Stack::decoder, 0, h}, {in.tgt_ids[i]},
                                            {in.tgt_ids[j]}, static_cast<int>(i - j));
                    REQUIRE(score);
                    INFO("head " << h << ", query " << i << ", key " << j);
                    CHECK((*score)(0, 0) == Approx(scaled.data[static_cast<size_t>((h * T + i) * T + j)]).margin(1e-4));
                }
        // At another offset the same two tokens score differently: the circuit does depend on it.
        auto near = qk_circuit(m.config, m.weights, {Stack::decoder, 0, 0}, {14}, {9}, 0);
        auto far = qk_circuit(m.config, m.weights, {Stack::decoder, 0, 0}, {14}, {9}, 5);
        REQUIRE((near && far));
        CHECK(std::abs((*near)(0, 0) - (*far)(0, 0)) > 1e-3f);
    }
}

TEST_CASE("a head's QK circuit turns as its own layer does: not in a NoPE layer, by a local layer's own base",
          "[circuits][smollm3][gemma3]") {
    auto circuit = [](const Model& m, int layer, int offset) {
        auto score = qk_circuit(m.config, m.weights, {Stack::decoder, layer, 1}, {14, 3}, {9, 5}, offset);
        REQUIRE(score);
        return Mat(*score);
    };
    SECTION("SmolLM3's layer 3 has no RoPE: any offset gives the same scores, where its layer 0's differ") {
        auto loaded = open_model(kFixtures + "hf_smollm3");
        if (!loaded) FAIL(loaded.error().message);
        const Model& m = loaded->model;
        REQUIRE(m.config.no_rope_layers == std::vector<int>{3});
        CHECK((circuit(m, 3, 0) - circuit(m, 3, 5)).cwiseAbs().maxCoeff() == 0.0f);
        CHECK((circuit(m, 0, 0) - circuit(m, 0, 5)).cwiseAbs().maxCoeff() > 1e-3f);
    }
    SECTION("Gemma 3's local layer 0 reads local_rope_theta; its global layer 2 does not") {
        auto loaded = open_model(kFixtures + "hf_gemma3");
        if (!loaded) FAIL(loaded.error().message);
        Model m = loaded->model;
        REQUIRE(m.config.local_layers == std::vector<int>{0, 1, 3});
        const Mat local = circuit(m, 0, 3), global = circuit(m, 2, 3);
        m.config.local_rope_theta = 500.0f;  // another local base: only the local layer's circuit moves
        CHECK((circuit(m, 0, 3) - local).cwiseAbs().maxCoeff() > 1e-3f);
        CHECK((circuit(m, 2, 3) - global).cwiseAbs().maxCoeff() == 0.0f);
    }
}
