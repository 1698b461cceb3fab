// What Translate made (app/model/translation_record): a Marian translation that runs to the position limit
// without </s> ends at the length limit; the target it made is "translated" until it is edited; a typed
// target is typed, and ids set by hand are by hand.
#include "session_support.h"
#include "translation_record.h"

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures";

}  // namespace

TEST_CASE("a Marian translation that reaches the position limit without </s> ends at the length limit",
          "[app][translate]") {
    auto s = Session::from_file(kFixtures + "/hf_marian", "the cat sat on the mat.", "", 1);
    REQUIRE(s);
    TranslationRecord record;
    REQUIRE(record.translate(*s));
    const std::vector<int>& ids = s->stepper().inputs().tgt_ids;
    const ModelConfig& c = s->stepper().config();
    REQUIRE(ids.back() != c.eos_id);  // this small random Marian never says </s>
    CHECK(static_cast<int>(ids.size()) == c.max_len);
    CHECK(target_end(*s) == TargetEnd::length_limit);
    CHECK(target_origin(*s, record) == TargetOrigin::translated);
}

TEST_CASE("the target is translated until it is edited, typed when typed, by hand when set as ids",
          "[app][translate]") {
    Session s = test::english_korean();
    TranslationRecord record;
    CHECK(target_origin(s, record) == TargetOrigin::typed);
    REQUIRE(record.translate(s));
    CHECK(target_origin(s, record) == TargetOrigin::translated);
    const TargetEnd end = target_end(s);
    CHECK(end != TargetEnd::open);  // greedy decoding stops only at <eos> or at max_len
    std::vector<int> edited = s.stepper().inputs().tgt_ids;
    edited.back() = edited.back() == 4 ? 5 : 4;
    REQUIRE(s.set_tgt_ids(edited));
    CHECK(target_origin(s, record) == TargetOrigin::by_hand);
    REQUIRE(s.set_tgt_text("나 는"));
    CHECK(target_origin(s, record) == TargetOrigin::typed);
    CHECK(target_end(s) == TargetEnd::open);
}
