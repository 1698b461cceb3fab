// BLOOM from a Hugging Face folder (tests/golden/make_hf_bloom_golden.py, which follows modeling_bloom.py) must
// give PyTorch's outputs within 1e-4 at every step the reference stores: the embeddings and their LayerNorm, the
// ALiBi bias, Q, K, V split from the per-head query_key_value, the scaled and biased scores, each attention's
// weights, every FFN part, the stream and the logits.
#include "../fresh_trace.h"
#include "forward/mechanisms/architecture.h"
#include "forward/mechanisms/score_bias.h"
#include "hf/hf_folder_writer.h"
#include "hf_golden_support.h"
#include "hf_test_folders.h"
#include "io/mapped_safetensors.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

using namespace attnlab;
using test::hf_fixture;

namespace {

bool has_step(const ModelConfig& config, const std::string& path) {
    const auto steps = build_forward_steps(config);
    return std::any_of(steps.begin(), steps.end(), [&](const Step& s) { return s.path == path; });
}

}  // namespace

TEST_CASE("a BLOOM folder (ALiBi over 6 heads, per-head fused Q, K, V, tied head) matches PyTorch",
          "[hf][bloom]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_bloom"));
    const ModelConfig& c = loaded.model.config;
    CHECK((c.family == Family::bloom && c.arch == Arch::decoder_only && c.positional == Positional::alibi));
    CHECK((c.n_heads == 6 && c.d_model == 24 && c.d_ff == 96 && c.n_decoder_layers == 2));
    CHECK((c.embedding_norm && c.norm_first && c.tie_embeddings && c.activation == Activation::gelu_tanh));
    CHECK(loaded.unused_tensors.empty());
    const test::Expected expected = test::read_expected("hf_bloom");
    REQUIRE(expected.tensors.count("decoder.position_bias"));
    REQUIRE(expected.tensors.count("decoder.layers.1.self_attn.biased"));
    const Stepper stepper = test::run(loaded.model, expected.inputs);
    test::check_matches(stepper, expected);
    // 6 heads: the 4 slopes of 4 heads, then the odd slopes of 8 (build_alibi_tensor).
    CHECK(ScoreBiasMechanism(c).slopes() == std::vector<float>{0.25f, 0.0625f, 0.015625f, 0.00390625f, 0.5f, 0.125f});
    CHECK(describe_architecture(c).find(", ALiBi slopes 0.25, 0.0625, … (6 heads)") != std::string::npos);
}

TEST_CASE("BLOOM's steps: a position bias and a biased stage, no positions on the embeddings", "[hf][bloom]") {
    const ModelConfig c = test::open(hf_fixture("hf_bloom")).model.config;
    CHECK(has_step(c, "decoder.position_bias"));
    CHECK(has_step(c, "tgt.embed_norm"));
    for (const char* path : {"decoder.layers.0.self_attn.biased", "decoder.layers.1.self_attn.biased"})
        CHECK(has_step(c, path));
    CHECK_FALSE(has_step(c, "tgt.pos"));
    CHECK_FALSE(has_step(c, "decoder.layers.0.self_attn.q_rot"));
    // The biased stage sits between ÷√D and the mask.
    const auto steps = build_forward_steps(c);
    const auto at = [&](const std::string& path) {
        return std::find_if(steps.begin(), steps.end(), [&](const Step& s) { return s.path == path; }) - steps.begin();
    };
    const std::string a = "decoder.layers.0.self_attn.";
    CHECK(at(a + "scaled") < at(a + "biased"));
    CHECK(at(a + "biased") < at(a + "masked"));
    CHECK(steps[static_cast<size_t>(at(a + "masked"))].inputs.front().stage == AttentionStage::biased);
}

TEST_CASE("BLOOM: an edited or longer sentence re-runs to the numbers a fresh run gives", "[hf][bloom]") {
    const LoadedModel loaded = test::open(hf_fixture("hf_bloom"));
    const test::Expected expected = test::read_expected("hf_bloom");
    Stepper stepper = test::run(loaded.model, expected.inputs);
    std::vector<int> ids = expected.inputs.tgt_ids;
    ids.back() = 44;  // the last token: only the last rows change
    REQUIRE(stepper.set_tgt_ids(ids));
    test::require_fresh_trace(stepper);
    ids.push_back(7);  // one more: the bias grows by a row and a column
    REQUIRE(stepper.set_tgt_ids(ids));
    test::require_fresh_trace(stepper);
    CHECK(stepper.output("decoder.position_bias")->shape == Shape{6, 9, 9});
}

TEST_CASE("BLOOM's query_key_value is saved back in its per-head order", "[hf][bloom][hf_writer]") {
    const std::string source = hf_fixture("hf_bloom");
    test::TempFolder tmp;
    const std::string out = tmp.file("saved");
    REQUIRE(write_hf_folder(out, test::open(source).model, source));
    auto saved = io::MappedSafetensors::open(out + "/model.safetensors");
    auto original = io::MappedSafetensors::open(source + "/model.safetensors");
    REQUIRE((saved && original));
    const std::string name = "transformer.h.1.self_attention.query_key_value.weight";
    const Tensor a = **saved->tensor(name), b = **original->tensor(name);
    REQUIRE(a.shape == b.shape);
    CHECK(std::memcmp(a.data.data(), b.data.data(), static_cast<size_t>(a.numel()) * sizeof(float)) == 0);
}

TEST_CASE("BLOOM with the residual taken after the LayerNorm is refused in one line", "[hf][bloom]") {
    test::TempFolder tmp;
    test::write_edited_copy(
        "hf_bloom", tmp, [](nlohmann::json& j) { j["apply_residual_connection_post_layernorm"] = true; }, nullptr);
    auto loaded = open_model(tmp.path());
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().message.find("apply_residual_connection_post_layernorm") != std::string::npos);
    CHECK(loaded.error().message.find('\n') == std::string::npos);
}
