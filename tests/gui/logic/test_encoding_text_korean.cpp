// The Positional view translates what the core says a model's encoding is (PositionMechanism::encoding_text):
// each scheme's sentence has its Korean, and the NoPE form keeps its one "%s" for the layers.
#include "i18n.h"

#include "config.h"
#include "forward/mechanisms/positions.h"

#include <catch2/catch.hpp>

#include <string>

using namespace attnlab;

TEST_CASE("each scheme's encoding text has its Korean", "[i18n][encoding_text]") {
    auto tiny = preset_config("tiny", 8, 8);
    REQUIRE(tiny);
    for (const Positional p : {Positional::learned, Positional::rotary, Positional::alibi,
                               Positional::relative_buckets, Positional::none}) {
        ModelConfig c = *tiny;
        c.positional = p;
        const char* english = PositionMechanism(c).encoding_text();
        INFO(english);
        const char* korean = gui::korean_text(english);
        REQUIRE(korean != nullptr);
        CHECK(std::string(korean) != english);
    }
    ModelConfig nope = *tiny;
    nope.positional = Positional::rotary;
    nope.no_rope_layers = {1};
    const std::string english = PositionMechanism(nope).encoding_text();
    REQUIRE(gui::korean_text(english) != nullptr);
    const std::string korean = gui::korean_text(english);
    CHECK(english.find("%s") != std::string::npos);
    CHECK(korean.find("%s") != std::string::npos);
    CHECK(korean.find("%s", korean.find("%s") + 1) == std::string::npos);  // one argument, the layers
}
