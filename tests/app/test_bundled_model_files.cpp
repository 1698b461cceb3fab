// The model list the app offers: every bundled model opens, and a training history beside its model is not listed.
#include "default_model.h"
#include "hf/open_model.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

using namespace attnlab;

TEST_CASE("every bundled model file the app lists opens, and no training history is listed", "[models]") {
    const std::string assets = std::string(ATTNLAB_SOURCE_DIR) + "/assets";
    const std::vector<std::string> files = gui::bundled_model_files(assets);
    REQUIRE(std::filesystem::exists(assets + "/models/induction.history.safetensors"));
    auto named = [&](const std::string& name) {
        return std::any_of(files.begin(), files.end(),
                           [&](const std::string& f) { return std::filesystem::path(f).filename() == name; });
    };
    CHECK(named("en-ko.safetensors"));
    CHECK(named("induction.safetensors"));
    CHECK(!named("induction.history.safetensors"));
    for (const std::string& f : files) {
        INFO(f);
        auto opened = open_model(f);
        CHECK(opened.ok());
    }
}
