// The changes bar's switch item names the norm the model has: LayerNorm with Post-LN / Pre-LN, RMSNorm with
// Post-norm / Pre-norm (chapter 10 switches an RMSNorm model, which has no LayerNorm to name).
#include "panels/changes_bar.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("the changes bar names an RMSNorm model's norm switch RMSNorm, with its placements", "[changes]") {
    ModelConfig loaded;
    loaded.norm = NormKind::rms_norm;
    loaded.norm_first = true;
    ModelConfig live = loaded;
    live.norm_first = false;
    for (const bool korean : {false, true}) {
        const std::string text =
            switch_change_text(live, loaded, ConfigSwitch::layer_norm, ModelOrigin::random, korean);
        INFO(text);
        CHECK_THAT(text, Catch::StartsWith("RMSNorm") || Catch::StartsWith("RMS 정규화"));
        CHECK_THAT(text, Catch::Contains("Post-norm") && Catch::Contains("Pre-norm"));
        CHECK_THAT(text, !Catch::Contains("LayerNorm") && !Catch::Contains("-LN"));
    }
}

TEST_CASE("the changes bar names a LayerNorm model's norm switch as before", "[changes]") {
    ModelConfig loaded;
    loaded.norm = NormKind::layer_norm;
    loaded.norm_first = false;
    ModelConfig live = loaded;
    live.norm_first = true;
    CHECK(switch_change_text(live, loaded, ConfigSwitch::layer_norm, ModelOrigin::file, false) ==
          "LayerNorm: Pre-LN (trained with Post-LN)");
}
