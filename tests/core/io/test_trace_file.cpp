// Trace files hold every step's output under its path, plus the step list and inputs.
#include "../test_support.h"
#include "io/trace_file.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace attnlab;

TEST_CASE("a trace file holds every run step, its shapes and its step list", "[trace_file]") {
    Stepper s = test::make_stepper(test::small_config());
    s.run_all();
    const io::SafetensorsFile f = io::trace_to_safetensors(s);
    REQUIRE(f.tensors.size() == s.size());
    // The names the CLI documents, with their shapes: S = 5, T = 4, H = 2, C = 16, V = 20.
    CHECK(f.tensors.at("encoder.layers.1.self_attn.weights").shape == Shape{2, 5, 5});
    CHECK(f.tensors.at("decoder.layers.0.self_attn.weights").shape == Shape{2, 4, 4});
    CHECK(f.tensors.at("decoder.layers.1.cross_attn.weights").shape == Shape{2, 4, 5});
    CHECK(f.tensors.at("decoder.layers.1.cross_attn.q").shape == Shape{2, 4, 8});
    CHECK(f.tensors.at("encoder.output").shape == Shape{5, 16});
    CHECK(f.tensors.at("decoder.output").shape == Shape{4, 16});
    CHECK(f.tensors.at("logits").shape == Shape{4, 20});
    CHECK(test::bit_equal(f.tensors.at("logits"), *s.output("logits")));
    const auto steps = nlohmann::json::parse(f.metadata.at("steps"));
    REQUIRE(steps.size() == s.size());
    CHECK(steps[0]["path"] == s.step(0).path);
    CHECK(nlohmann::json::parse(f.metadata.at("src_ids")).get<std::vector<int>>() == s.inputs().src_ids);

    // Serialised and parsed back, the file is the same.
    const auto bytes = io::serialize_safetensors(f);
    auto back = io::parse_safetensors(bytes, "trace");
    REQUIRE(back);
    CHECK(test::bit_equal(back->tensors.at("decoder.layers.1.cross_attn.weights"),
                          *s.output("decoder.layers.1.cross_attn.weights")));

    // Stepped back half-way, only the steps that have run are written.
    s.run_to(s.size() / 2);
    CHECK(io::trace_to_safetensors(s).tensors.size() == s.size() / 2);
}
