// T5 folders (tests/golden/make_hf_t5_golden.py, which follows modeling_t5.py) must give PyTorch's outputs within
// 1e-4 at every step the reference stores: each stack's relative position bias, every attention's Q, K, V, weights
// and output, every RMSNorm, FFN part and residual, both stacks' outputs and the logits; T5 v1.0 (relu, tied,
// d_model^−½ before the shared table) and Flan-T5's v1.1 layout (gated-gelu, its own lm_head, H·D ≠ C).
#include "../test_support.h"
#include "hf_golden_support.h"
#include "hf_test_folders.h"
#include "ops/relative_buckets.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace attnlab;
using test::hf_fixture;

TEST_CASE("a T5 v1.0 folder matches PyTorch at every stored step", "[hf][t5]") {
    const auto [loaded, expected, stepper] = test::run_fixture("hf_t5");
    test::check_matches(stepper, expected);
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::t5 && c.arch == Arch::encoder_decoder && c.norm_first && c.final_norm));
    CHECK((c.positional == Positional::relative_buckets && c.relative_buckets == 8 && c.relative_max_distance == 16));
    CHECK((c.norm == NormKind::rms_norm && !c.qkv_bias && !c.out_bias && !c.ffn_bias && !c.gated_ffn));
    CHECK((c.activation == Activation::relu && c.tie_embeddings && c.attention_scale == 1.0f));
    CHECK(c.logit_scale == Approx(0.25f));  // d_model 16: 16^−½
    CHECK((c.pad_id == 0 && c.sos_id == 0 && c.eos_id == 1 && c.head_dim == 0));
    // The file's tied copies of shared are left unread; block 0 of each stack holds the bias table (B, H).
    CHECK(loaded.unused_tensors == std::vector<std::string>{"decoder.embed_tokens.weight", "encoder.embed_tokens.weight"});
    CHECK(loaded.model.weights.at("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight").shape ==
          Shape{8, 4});
    CHECK_FALSE(loaded.model.weights.contains("encoder.block.1.layer.0.SelfAttention.relative_attention_bias.weight"));
}

TEST_CASE("a Flan-T5 (v1.1) folder matches PyTorch at every stored step", "[hf][t5]") {
    const auto [loaded, expected, stepper] = test::run_fixture("hf_flan_t5");
    test::check_matches(stepper, expected);
    const ModelConfig& c = loaded.model.config;
    CHECK((c.gated_ffn && c.activation == Activation::gelu_tanh && !c.tie_embeddings && c.logit_scale == 1.0f));
    CHECK((c.head_dim == 6 && c.n_heads == 3 && c.d_model == 16));  // H·D = 18 ≠ C
    CHECK((c.n_encoder_layers == 2 && c.n_decoder_layers == 3));
    CHECK(loaded.unused_tensors.empty());
    CHECK(loaded.model.weights.contains("lm_head.weight"));
}

TEST_CASE("T5's position bias is the table read at each pair's bucket, shared by every layer", "[hf][t5]") {
    const auto [loaded, expected, stepper] = test::run_fixture("hf_t5");
    const ModelConfig& c = loaded.model.config;
    const Tensor* bias = stepper.output("decoder.position_bias");  // (H, T, T)
    REQUIRE(bias);
    const Tensor& table = loaded.model.weights.at("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight");
    const int64_t T = bias->dim(1);
    // Query 5 looking 5 back (bucket 4 of the decoder's 8 up to 16) and at a later key (distance 0: bucket 0).
    CHECK(relative_position_bucket(-5, false, c.relative_buckets, c.relative_max_distance) == 4);
    for (int64_t h = 0; h < bias->dim(0); ++h) {
        CHECK(bias->data[static_cast<size_t>((h * T + 5) * T + 0)] == table.data[static_cast<size_t>(4 * 4 + h)]);
        CHECK(bias->data[static_cast<size_t>((h * T + 1) * T + 3)] == table.data[static_cast<size_t>(h)]);
    }
    // Every layer's self-attention adds the same step's bias; the cross-attention adds none.
    const Tensor biased = *stepper.output("decoder.layers.1.self_attn.biased");  // (H, T, T)
    const Tensor scaled = *stepper.output("decoder.layers.1.self_attn.scaled");
    const Tensor scores = *stepper.output("decoder.layers.1.self_attn.scores");
    REQUIRE(biased.shape == bias->shape);
    CHECK(test::max_abs_diff(scaled, scores) == 0.0f);  // T5 does not divide by √D
    float worst = 0.0f;
    for (size_t k = 0; k < biased.data.size(); ++k)
        worst = std::max(worst, std::abs(biased.data[k] - scaled.data[k] - bias->data[k]));
    CHECK(worst < 1e-5f);
    CHECK_FALSE(stepper.output("decoder.layers.0.cross_attn.biased"));
}

TEST_CASE("a T5 folder's spiece.model gives T5Tokenizer's ids: the pieces', </s> after the source", "[hf][t5]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_t5"));
    CHECK(loaded.tokenizer.files_read == std::vector<std::string>{"spiece.model"});
    REQUIRE(loaded.model.subword_tokenizer);
    CHECK(std::string(loaded.model.subword_tokenizer->name()) == "SentencePiece (spiece.model)");  // the file read
    auto file = io::read_safetensors(hf_fixture("hf_t5") + "/expected.safetensors");
    REQUIRE(file);
    const test::Expected expected = test::read_expected("hf_t5");  // the ids python3-sentencepiece gave
    auto src = encode_source_text(loaded.model, file->metadata.at("src_text"));
    REQUIRE(src);
    CHECK(src->ids == expected.inputs.src_ids);  // …, </s> (1)
    auto tgt = encode_target_text(loaded.model, file->metadata.at("tgt_text"));
    REQUIRE(tgt);
    CHECK(tgt->ids == expected.inputs.tgt_ids);  // <pad> (0), …: the decoder starts from decoder_start_token_id
    // config.json's vocabulary is 8 ids larger than the tokenizer's, as T5's 32128 against 32100.
    REQUIRE(loaded.model.tgt_vocab);
    CHECK(loaded.model.tgt_vocab->size() == loaded.model.config.tgt_vocab_size);
    CHECK(loaded.model.tgt_vocab->token(0) == "<pad>");
}
