// What the Positional view says a model's encoding is (PositionMechanism::encoding_text): each scheme of the zoo
// by its own name, read off the fixtures' configs; a model with NoPE layers names them.
#include "forward/mechanisms/positions.h"
#include "hf/open_model.h"

#include <catch2/catch.hpp>

#include <string>

using namespace attnlab;
using Catch::Matchers::Contains;

namespace {

ModelConfig fixture_config(const std::string& name) {
    auto loaded = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/" + name);
    if (!loaded) FAIL(loaded.error().message);
    return loaded->model.config;
}

}  // namespace

TEST_CASE("the Positional view names each model's own encoding", "[positions][encoding_text]") {
    const std::pair<const char*, const char*> expected[] = {{"hf_t5", "T5's relative position buckets"},
                                                            {"hf_bloom", "ALiBi"},
                                                            {"hf_gpt2", "Learned position embeddings"},
                                                            {"hf_marian", "PE(pos, C/2 + i) = cos"},
                                                            {"hf_llama", "Inside every attention"}};
    for (const auto& [fixture, words] : expected) {
        INFO(fixture);
        const PositionMechanism positions(fixture_config(fixture));
        CHECK_THAT(positions.encoding_text(), Contains(words));
        CHECK(positions.nope_layers().empty());
    }
}

TEST_CASE("a model with NoPE layers says which layers turn nothing", "[positions][encoding_text]") {
    const PositionMechanism smollm3(fixture_config("hf_smollm3"));  // layer 3 of 4 drops RoPE
    CHECK_THAT(smollm3.encoding_text(), Contains("with NoPE layers") && Contains("(%s)"));
    CHECK(smollm3.nope_layers() == "3");
    ModelConfig none = fixture_config("hf_smollm3");
    none.positional = Positional::none;
    CHECK(PositionMechanism(none).nope_layers().empty());  // no rotary positions: no layer to name
}
