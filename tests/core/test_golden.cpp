// Golden tests: models built and run by PyTorch 1.13 (tests/golden/make_golden.py), loaded
// as they are, must give the same logits, per-head attention weights and stack outputs.
#include "io/model_file.h"
#include "stepper.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

std::vector<int> ids_from_metadata(const io::SafetensorsFile& f, const std::string& key) {
    return nlohmann::json::parse(f.metadata.at(key)).get<std::vector<int>>();
}

}  // namespace

TEST_CASE("traces match PyTorch's torch.nn.Transformer within 1e-4", "[golden]") {
    const char* cases[] = {"post_ln_relu", "pre_ln_gelu", "learned_pe", "decoder_only", "encoder_only", "no_pe_h1"};
    for (const char* name : cases) {
        INFO("case " << name);
        auto model = io::read_model(kFixtures + name + ".model.safetensors");
        if (!model) FAIL(model.error().message);
        auto expected = io::read_safetensors(kFixtures + name + ".expected.safetensors");
        if (!expected) FAIL(expected.error().message);

        ForwardInputs in;
        in.src_ids = ids_from_metadata(*expected, "src_ids");
        in.tgt_ids = ids_from_metadata(*expected, "tgt_ids");
        auto stepper = Stepper::create(model->config, model->weights, in);
        if (!stepper) FAIL(stepper.error().message);
        stepper->run_all();

        REQUIRE(expected->tensors.count("logits"));
        size_t n_attention = 0;
        for (const auto& [path, want] : expected->tensors) {
            INFO("tensor " << path);
            const Tensor* got = stepper->output(path);
            REQUIRE(got);
            REQUIRE(got->shape == want.shape);
            CHECK(test::max_abs_diff(*got, want) < 1e-4f);
            n_attention += path.ends_with(".weights");
        }
        const ModelConfig& c = model->config;
        const size_t layers_with_attention =
            c.n_encoder_layers + (c.arch == Arch::encoder_decoder ? 2 : 1) * c.n_decoder_layers;
        CHECK(n_attention == layers_with_attention);
    }
}
