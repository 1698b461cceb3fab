// The Output view says why a translation stopped: a Marian translation that reaches the position limit
// without </s> says so, with the limit and the end token's own name, in English and Korean.
#include "panels/generation_strip.h"
#include "translation_record.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("a translation stopped at the position limit says so, naming the limit and </s>", "[output][translate]") {
    auto s = Session::from_file(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_marian",
                                "the cat sat on the mat.", "", 1);
    REQUIRE(s);
    CHECK(target_end_note(*s, false).empty());  // not translated yet: the target is <pad> alone, open
    TranslationRecord record;
    REQUIRE(record.translate(*s));
    REQUIRE(target_end(*s) == TargetEnd::length_limit);
    const std::string limit = "T = " + std::to_string(s->stepper().config().max_len);
    const std::string en = target_end_note(*s, false), ko = target_end_note(*s, true);
    CHECK_THAT(en, Catch::Contains("length limit") && Catch::Contains(limit) && Catch::Contains("without </s>"));
    CHECK_THAT(ko, Catch::Contains(limit) && Catch::Contains("</s>") && Catch::Contains("길이"));
}
