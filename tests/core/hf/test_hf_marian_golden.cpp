// Marian folders (tests/golden/make_hf_marian_golden.py, which follows modeling_marian.py) must give
// PyTorch's outputs within 1e-4 at every step the reference stores: the sinusoids in halves, each stack's
// input, every attention's weights, every post-LN output, both stacks' outputs and the logits.
#include "../test_support.h"
#include "decode.h"
#include "hf_golden_support.h"
#include "hf_test_folders.h"
#include "ops/positional.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using test::hf_fixture;

TEST_CASE("an opus-mt-shaped Marian folder matches PyTorch at every stored step", "[hf][marian]") {
    const auto [loaded, expected, stepper] = test::run_fixture("hf_marian");
    test::check_matches(stepper, expected);
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::marian && c.arch == Arch::encoder_decoder && !c.norm_first && !c.final_norm));
    CHECK((c.positional == Positional::sinusoidal && c.sinusoid_layout == SinusoidLayout::halves));
    CHECK((c.activation == Activation::silu && c.scale_embedding && c.tie_embeddings));
    CHECK((c.src_vocab_size == c.tgt_vocab_size && c.pad_id == c.tgt_vocab_size - 1 && c.sos_id == c.pad_id));
    CHECK(c.eos_id == 0);
    CHECK(loaded.unused_tensors.empty());
    // Both stacks and the unembedding read the one shared table; final_logits_bias is the unembedding's bias.
    CHECK(loaded.model.weights.contains("shared.weight"));
    CHECK(loaded.model.weights.at("final_logits_bias").shape == Shape{c.tgt_vocab_size});
}

TEST_CASE("Marian's decoder starts from <pad> and still attends to it", "[hf][marian]") {
    const auto [loaded, expected, stepper] = test::run_fixture("hf_marian");
    REQUIRE(expected.inputs.tgt_ids.front() == loaded.model.config.pad_id);
    const Tensor* keep = stepper.output("masks.tgt_padding");  // (T,)
    REQUIRE(keep);
    for (float k : keep->data) CHECK(k == 1.0f);
    const Tensor* weights = stepper.output("decoder.layers.0.self_attn.weights");  // (H, T, T)
    REQUIRE(weights);
    for (int64_t h = 0; h < weights->dim(0); ++h)
        CHECK(weights->data[static_cast<size_t>(h * weights->dim(1) * weights->dim(2))] == 1.0f);
}

TEST_CASE("a Marian folder with its own lm_head, relu and the old position tables matches PyTorch", "[hf][marian]") {
    const auto [loaded, expected, stepper] = test::run_fixture("hf_marian_untied");
    test::check_matches(stepper, expected);
    const ModelConfig& c = loaded.model.config;
    CHECK((c.activation == Activation::relu && !c.scale_embedding && !c.tie_embeddings && c.sos_id == 2));
    CHECK(loaded.model.weights.contains("lm_head.weight"));
    CHECK(loaded.unused_tensors ==
          std::vector<std::string>{"model.decoder.embed_positions.weight", "model.encoder.embed_positions.weight"});
    // The tables the old files carry are the halves layout this engine computes.
    auto file = io::read_safetensors(hf_fixture("hf_marian_untied") + "/model.safetensors");
    REQUIRE(file);
    const Tensor& stored = file->tensors.at("model.encoder.embed_positions.weight");  // (max_len, C)
    const Tensor computed = sinusoidal_encoding(c.max_len, c.d_model, SinusoidLayout::halves);
    REQUIRE(stored.shape == computed.shape);
    CHECK(test::max_abs_diff(stored, computed) == 0.0f);
}

TEST_CASE("greedy decoding never picks an id of the config's bad_words_ids (Marian's <pad>)", "[hf][marian]") {
    auto [loaded, expected, stepper] = test::run_fixture("hf_marian");
    ModelConfig& c = loaded.model.config;
    CHECK(c.never_generated == std::vector<int>{c.pad_id});  // "bad_words_ids": [[143]]
    // Every id the untrained decoder would pick first is banned in turn: the next best is taken instead.
    const Tensor& logits = *stepper.output("logits");  // (T, V)
    const int64_t last = logits.dim(0) - 1;
    const int best = argmax_row(logits, last);
    c.never_generated = {best};
    const int second = greedy_next(logits, last, c);
    CHECK(second != best);
    for (int64_t id = 0; id < logits.dim(1); ++id)
        if (id != best) CHECK(logits.row(last)[id] <= logits.row(last)[second]);
    // Translating with <pad> and the first pick both banned never writes either.
    c.never_generated = {c.pad_id, best};
    ForwardInputs inputs = expected.inputs;
    inputs.tgt_ids = {c.sos_id};
    auto translating = Stepper::create(c, loaded.model.weights, inputs);
    REQUIRE(translating);
    auto generated = greedy_decode(*translating);
    REQUIRE(generated);
    REQUIRE_FALSE(generated->empty());
    for (const int id : *generated) CHECK((id != c.pad_id && id != best));
}
