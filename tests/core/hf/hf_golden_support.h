// Reading a Hugging Face golden folder's expected.safetensors (tests/golden/make_hf_golden.py,
// make_hf_llama_golden.py), running the folder on its inputs and comparing the run's steps with it.
#pragma once

#include "../test_support.h"
#include "hf/open_model.h"
#include "hf_test_folders.h"
#include "io/safetensors.h"
#include "stepper.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace attnlab::test {

struct Expected {
    ForwardInputs inputs;
    std::map<std::string, Tensor> tensors;  // step path -> PyTorch's output
};

inline Expected read_expected(const std::string& fixture) {
    auto file = io::read_safetensors(hf_fixture(fixture) + "/expected.safetensors");
    if (!file) throw std::runtime_error(file.error().message);
    auto ids = [&](const char* key) {
        auto it = file->metadata.find(key);
        return it == file->metadata.end() ? std::vector<int>{}
                                          : nlohmann::json::parse(it->second).get<std::vector<int>>();
    };
    Expected expected;
    expected.inputs.src_ids = ids("src_ids");
    expected.inputs.tgt_ids = ids("tgt_ids");
    expected.inputs.src_token_types = ids("src_token_types");
    expected.tensors = std::move(file->tensors);
    return expected;
}

inline Stepper run(const Model& model, const ForwardInputs& inputs) {
    auto stepper = Stepper::create(model.config, model.weights, inputs);
    if (!stepper) throw std::runtime_error(stepper.error().message);
    stepper->run_all();
    return std::move(*stepper);
}

// Every expected tensor (but those `skip` names) matches the step of the same path within 1e-4.
inline void check_matches(const Stepper& stepper, const Expected& expected, const std::set<std::string>& skip = {}) {
    for (const auto& [path, want] : expected.tensors) {
        if (skip.count(path)) continue;
        INFO("step " << path);
        const Tensor* got = stepper.output(path);
        REQUIRE(got);
        REQUIRE(got->shape == want.shape);
        CHECK(test::max_abs_diff(*got, want) < 1e-4f);
    }
}

// max |got − want| / max |want| over their entries in order (the golden scripts' rel_diff); the shapes may differ,
// as a step's (1, T, V) logits from a script's (T, V), but not the counts.
inline double relative_distance(const Tensor& got, const Tensor& want) {
    REQUIRE(got.numel() == want.numel());
    double diff = 0.0, scale = 0.0;
    for (int64_t i = 0; i < want.numel(); ++i) {
        const auto g = static_cast<double>(got.data[static_cast<size_t>(i)]);
        const auto w = static_cast<double>(want.data[static_cast<size_t>(i)]);
        diff = std::max(diff, std::abs(g - w));
        scale = std::max(scale, std::abs(w));
    }
    return diff / scale;
}

inline LoadedModel open(const std::string& folder) {
    auto loaded = open_model(folder);
    if (!loaded) FAIL(loaded.error().message);
    return std::move(*loaded);
}

// A golden folder opened and run on the inputs its expected.safetensors holds.
struct FixtureRun {
    LoadedModel loaded;
    Expected expected;
    Stepper stepper;
};

inline FixtureRun run_fixture(const std::string& fixture) {
    LoadedModel loaded = open(hf_fixture(fixture));
    Expected expected = read_expected(fixture);
    Stepper stepper = run(loaded.model, expected.inputs);
    return {std::move(loaded), std::move(expected), std::move(stepper)};
}

}  // namespace attnlab::test
