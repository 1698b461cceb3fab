// detect_heads (core/analysis/head_detectors) against the PyTorch oracle of tests/golden/make_detect_golden.py
// (fixtures/detect.json): GPT-2 with and without a BOS, Llama, and the bundled en-ko encoder-decoder (both stacks).
#include "analysis/head_detectors.h"
#include "forward/step_path.h"
#include "hf/open_model.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace attnlab;

using Score = float HeadScores::*;

TEST_CASE("detect_heads: the ids, the attentions and the three scores match PyTorch's within 1e-5",
          "[analysis][head_detectors]") {
    std::ifstream in(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/detect.json");
    REQUIRE(in);
    const nlohmann::json cases = nlohmann::json::parse(in).at("cases");
    REQUIRE(cases.size() == 4);
    const std::pair<const char*, Score> kScores[] = {{"induction", &HeadScores::induction},
                                                     {"previous", &HeadScores::previous_token},
                                                     {"duplicate", &HeadScores::duplicate_token}};
    for (const nlohmann::json& c : cases) {
        INFO(c.at("case").get<std::string>());
        auto loaded = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/" + c.at("model").get<std::string>());
        REQUIRE(loaded);
        HeadDetectorOptions options;
        options.length = c.at("length").get<int>();
        options.seed = c.at("seed").get<uint64_t>();
        if (!c.at("bos").is_null()) options.bos = c.at("bos").get<int>();
        auto got = detect_heads(loaded->model.config, loaded->model.weights, options);
        REQUIRE(got);
        CHECK(got->ids == c.at("ids").get<std::vector<int>>());
        const nlohmann::json& names = c.at("attentions");
        REQUIRE(got->layers.size() == names.size());
        for (size_t l = 0; l < names.size(); ++l) {
            INFO(names[l].get<std::string>());
            CHECK(attention_name(got->layers[l].attention) == names[l].get<std::string>());
            for (const auto& [key, score] : kScores) {
                const std::vector<double> want = c.at(key).at(l).get<std::vector<double>>();
                REQUIRE(got->layers[l].heads.size() == want.size());
                for (size_t h = 0; h < want.size(); ++h) {
                    INFO(key << " head " << h);
                    CHECK(std::fabs(got->layers[l].heads[h].*score - want[h]) <= 1e-5);
                }
            }
        }
    }
}
