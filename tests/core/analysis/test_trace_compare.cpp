// Two traces compared: GPT-2 with and without an ablated head against PyTorch's ablated logits
// (tests/golden/make_hf_golden.py, analysis.safetensors "ablated.logits"), and two models whose
// shapes differ.
#include "analysis/trace_compare.h"
#include "hf/open_model.h"
#include "io/safetensors.h"
#include "model.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

Stepper run(const Model& m, const ForwardInputs& inputs) {
    auto s = Stepper::create(m.config, m.weights, inputs);
    if (!s) FAIL(s.error().message);
    s->run_all();
    return std::move(*s);
}

}  // namespace

TEST_CASE("GPT-2 with a head ablated differs from itself exactly where PyTorch says", "[analysis][hf]") {
    auto loaded = open_model(kFixtures + "hf_gpt2");
    REQUIRE(loaded);
    auto analysis = io::read_safetensors(kFixtures + "hf_gpt2/analysis.safetensors");
    auto expected = io::read_safetensors(kFixtures + "hf_gpt2/expected.safetensors");
    REQUIRE(analysis);
    REQUIRE(expected);
    ForwardInputs inputs;
    inputs.tgt_ids = nlohmann::json::parse(analysis->metadata.at("tgt_ids")).get<std::vector<int>>();
    const Stepper a = run(loaded->model, inputs);
    Stepper b = run(loaded->model, inputs);
    REQUIRE(b.set_head_ablated(AttentionSite{AttentionUse::decoder_self, 1}, 2,
                               true));  // make_hf_golden.py's CIRCUIT_LAYER, _HEAD

    const std::vector<std::string> shared = shared_steps(a, b);
    CHECK(shared.size() == a.size());
    for (const std::string& path : shared) {
        INFO(path);
        auto d = diff_step(a, b, path);
        REQUIRE(d);
        const bool upstream = path.rfind("decoder.layers.1.self_attn.context", 0) != 0 &&
                              *a.find(path) < *a.find("decoder.layers.1.self_attn.context");
        if (upstream) {  // nothing before the ablated head's context changes (a masked −∞ minus itself is 0)
            CHECK(d->max_abs == 0.0f);
            CHECK(d->rms == 0.0f);
        }
    }
    auto context = diff_step(a, b, "decoder.layers.1.self_attn.context");  // (H, T, D): head 2 zeroed
    REQUIRE(context);
    const Tensor& ctx_a = *a.output("decoder.layers.1.self_attn.context");
    for (int64_t i = 0; i < ctx_a.numel(); ++i) {
        const bool head2 = i / (ctx_a.dim(1) * ctx_a.dim(2)) == 2;
        REQUIRE(context->difference.data[static_cast<size_t>(i)] ==
                (head2 ? -ctx_a.data[static_cast<size_t>(i)] : 0.0f));
    }

    auto logits = diff_step(a, b, "logits");  // (T, V)
    REQUIRE(logits);
    const Tensor& ablated = analysis->tensors.at("ablated.logits");
    const Tensor& plain = expected->tensors.at("logits");
    REQUIRE(logits->difference.shape == ablated.shape);
    float worst = 0.0f;
    for (size_t i = 0; i < ablated.data.size(); ++i)
        worst = std::max(worst, std::abs(logits->difference.data[i] - (ablated.data[i] - plain.data[i])));
    CHECK(worst < 1e-4f);
    CHECK(logits->max_abs > 1e-2f);
    CHECK(logits->relative > 0.0f);
}

TEST_CASE("comparing models of different sizes keeps the steps whose shapes agree", "[analysis]") {
    auto tiny = make_random_model("tiny", 3, std::nullopt, std::nullopt, TokenizerKind::character);
    auto base = make_random_model("base", 3, std::nullopt, std::nullopt, TokenizerKind::character);
    REQUIRE(tiny);
    REQUIRE(base);
    ForwardInputs inputs;
    inputs.src_ids = {5, 6, 7, 2};
    inputs.tgt_ids = {1, 8, 9};
    const Stepper a = run(*tiny, inputs), b = run(*base, inputs);
    const std::vector<std::string> shared = shared_steps(a, b);
    CHECK(std::find(shared.begin(), shared.end(), "masks.encoder_self") != shared.end());
    CHECK(std::find(shared.begin(), shared.end(), "src.input") == shared.end());
    const std::string want = "src.input is (4, " + std::to_string(tiny->config.d_model) + ") in A and (4, " +
                             std::to_string(base->config.d_model) + ") in B";
    CHECK(diff_step(a, b, "src.input").error().message == want);
    CHECK(diff_step(a, b, "masks.encoder_self")->max_abs == 0.0f);
    CHECK(diff_step(a, b, "nowhere").error().message == "model A has no step nowhere");

    // Same shapes, different seeds: every step is shared, the embeddings differ.
    auto other = make_random_model("tiny", 4, std::nullopt, std::nullopt, TokenizerKind::character);
    REQUIRE(other);
    Stepper c = run(*other, inputs);
    CHECK(shared_steps(a, c).size() == a.size());
    auto embed = diff_step(a, c, "src.embed");
    REQUIRE(embed);
    CHECK(embed->max_abs > 0.0f);
    CHECK(embed->rms <= embed->max_abs);
    c.run_to(0);
    CHECK(diff_step(a, c, "src.embed").error().message == "src.embed has not run yet in model B");
    CHECK(shared_steps(a, c).empty());
}
