// A llama folder stored in BF16 (tests/golden/make_hf_bf16_golden.py): its matrices and token table stay BF16 in
// memory, its logits follow PyTorch's float32 pass on those weights (not its bfloat16 pass, which rounds every
// activation), and saving it back writes each unedited tensor as the same BF16 bytes.
#include "hf/hf_folder_writer.h"
#include "hf_golden_support.h"
#include "io/mapped_safetensors.h"
#include "weights_precision.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

using namespace attnlab;
using namespace attnlab::test;

TEST_CASE("A BF16 llama folder keeps its matrices BF16 and follows PyTorch's float32 pass", "[hf][llama][bf16]") {
    const FixtureRun run = run_fixture("hf_llama_bf16");
    const Weights& weights = run.loaded.model.weights;
    CHECK(weights.at("layers.0.self_attn.q_proj.weight").is_bf16());
    CHECK(weights.at("layers.1.mlp.down_proj.weight").is_bf16());
    const Tensor& table = weights.at(output_weight_name(run.loaded.model.config));  // tied: the token table
    CHECK(table.is_bf16());
    CHECK(table.bf16.is_view());  // read in place from the mapped file
    CHECK(!weights.at("layers.0.input_layernorm.weight").is_bf16());  // a norm gain: widened on open
    const WeightsPrecision precision = weights_precision(weights);
    CHECK(precision.bf16_tensors == 1 + 2 * 7);  // the table, and seven matrices a layer
    CHECK(precision.f32_tensors == 2 * 2 + 1);   // two norms a layer, the final one

    const Tensor* logits = run.stepper.output("logits");
    REQUIRE(logits);
    auto file = io::read_safetensors(hf_fixture("hf_llama_bf16") + "/expected.safetensors");
    REQUIRE(file);
    const double from_f32 = relative_distance(*logits, file->tensors.at("logits_f32"));
    const double from_bf16 = relative_distance(*logits, file->tensors.at("logits_bf16"));
    const double printed = std::stod(file->metadata.at("bf16_from_f32"));  // the bfloat16 pass from the float32 one
    INFO("from PyTorch's float32 pass " << from_f32 << ", from its bfloat16 pass " << from_bf16 << " (script: "
                                        << printed << ")");
    CHECK(from_f32 < 1e-5);
    CHECK(std::abs(from_bf16 - printed) < 0.02 * printed);  // as far from the bfloat16 pass as float32 is
}

TEST_CASE("A BF16 folder saved back holds the same BF16 bytes; an edited tensor is saved as F32", "[hf][bf16]") {
    const std::string source = hf_fixture("hf_llama_bf16");
    LoadedModel loaded = run_fixture("hf_llama_bf16").loaded;
    const std::string edited = "layers.0.self_attn.v_proj.weight";
    loaded.model.weights.set_value(edited, 3, 0.123456789f);  // not a BF16 value: the tensor becomes F32
    CHECK(!loaded.model.weights.at(edited).is_bf16());
    CHECK(loaded.model.weights.at(edited).data[3] == 0.123456789f);
    test::TempFolder tmp;
    const std::string out = tmp.file("saved");
    const Status st = write_hf_folder(out, loaded.model, source);
    if (!st) FAIL(st.error().message);
    auto a = io::MappedSafetensors::open(source + "/model.safetensors");
    auto b = io::MappedSafetensors::open(out + "/model.safetensors");
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(a->entries().size() == b->entries().size());
    for (const auto& [name, entry] : a->entries()) {
        INFO(name);
        const io::SafetensorsEntry& saved = b->entries().at(name);
        CHECK(saved.shape == entry.shape);
        if (name == "model.layers.0.self_attn.v_proj.weight") {
            CHECK(saved.dtype == io::Dtype::f32);
            continue;
        }
        CHECK(saved.dtype == io::Dtype::bf16);
        auto x = a->tensor(name, true), y = b->tensor(name, true);
        REQUIRE(x);
        REQUIRE(y);
        CHECK(std::equal((*x)->bf16.begin(), (*x)->bf16.end(), (*y)->bf16.begin(), (*y)->bf16.end()));
    }
}
