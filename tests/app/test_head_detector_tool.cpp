// The Analysis view's head detectors (app/model/head_detector_tool, detector_sequence): the options a choice means,
// the re-run on a new model or choice only, the ranked heads, and a head opened on the detector's sequence with the
// user's own input brought back after.
#include "detector_sequence.h"
#include "head_detector_tool.h"
#include "session_support.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kGpt2 = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_gpt2";

HeadDetectorChoice choice_of(int length, int seed, int bos) {
    HeadDetectorChoice c;
    c.length = length;
    c.seed = seed;
    c.bos = bos;
    return c;
}

}  // namespace

TEST_CASE("detector_options: the model's BOS by default, L within max_len", "[head_detectors]") {
    ModelConfig c = test::english_korean().stepper().config();  // sos 1, pad 0, max_len 64
    HeadDetectorOptions o = detector_options(c, choice_of(20, 3, -1));
    CHECK(o.bos == std::optional<int>(1));
    CHECK(o.length == std::optional<int>(20));
    CHECK(o.seed == 3);
    CHECK_FALSE(detector_options(c, choice_of(20, 3, -2)).bos);
    CHECK(detector_options(c, choice_of(20, 3, 6)).bos == std::optional<int>(6));
    CHECK(detector_options(c, choice_of(500, 0, -1)).length == std::optional<int>(31));  // (64 − 1) / 2
    CHECK(detector_options(c, choice_of(500, 0, -2)).length == std::optional<int>(32));
    CHECK(detector_options(c, choice_of(0, 0, -1)).length == std::optional<int>(2));
    c.sos_id = c.pad_id;  // Marian's decoder starts from <pad>: no BOS
    CHECK_FALSE(detector_options(c, choice_of(20, 0, -1)).bos);
    c.max_len = 200;  // the view's ceiling
    CHECK(detector_options(c, choice_of(500, 0, -2)).length == std::optional<int>(kMaxDetectorLength));
}

TEST_CASE("HeadDetectorTool: detect_heads on the live model, again only when the weights or the choice change",
          "[head_detectors]") {
    Session s = test::english_korean();
    HeadDetectorTool tool;
    const HeadDetectorChoice choice = choice_of(6, 2, -1);
    REQUIRE(tool.update(s.stepper().config(), s.stepper().weights(), choice));
    REQUIRE(tool.ready());
    const auto direct = detect_heads(s.stepper().config(), s.stepper().weights(), tool.options());
    REQUIRE(direct);
    CHECK(tool.scores().ids == direct->ids);
    CHECK(tool.scores().ids.size() == 13);      // <sos>, then 6 tokens twice
    REQUIRE(tool.scores().layers.size() == 4);  // the encoder's two self-attentions, then the decoder's two
    CHECK(tool.scores().layers[3].heads[2].induction == direct->layers[3].heads[2].induction);
    CHECK(tool.runs() == 1);

    CHECK_FALSE(tool.update(s.stepper().config(), s.stepper().weights(), choice));  // another frame
    REQUIRE(s.set_src_text("i like apples"));                                       // the input is not the detector's
    CHECK_FALSE(tool.update(s.stepper().config(), s.stepper().weights(), choice));
    CHECK(tool.runs() == 1);

    HeadDetectorChoice sorted = choice;
    sorted.sort = DetectorScore::previous;  // the sort is the view's: no re-run
    CHECK_FALSE(tool.update(s.stepper().config(), s.stepper().weights(), sorted));
    CHECK(tool.update(s.stepper().config(), s.stepper().weights(), choice_of(6, 3, -1)));  // another seed
    CHECK(tool.scores().ids != direct->ids);

    const float before = tool.scores().layers[0].heads[0].previous_token;
    REQUIRE(s.set_weight("encoder.layers.0.self_attn.in_proj_weight", 0, 7.5f));  // a weight edit
    CHECK(tool.update(s.stepper().config(), s.stepper().weights(), choice_of(6, 3, -1)));
    CHECK(tool.scores().layers[0].heads[0].previous_token != before);
    CHECK_FALSE(tool.update(s.stepper().config(), s.stepper().weights(), choice_of(6, 3, -1)));
}

TEST_CASE("HeadDetectorTool: a length max_len cannot hold is one line", "[head_detectors]") {
    auto s = Session::from_file(kGpt2, "49 7 23", "", 1);  // n_positions 12
    REQUIRE(s);
    HeadDetectorTool tool;
    ModelConfig c = s->stepper().config();
    c.max_len = 4;  // two copies of 2 tokens and the BOS do not fit
    REQUIRE(tool.update(c, s->stepper().weights(), choice_of(20, 0, -1)));
    CHECK_FALSE(tool.ready());
    CHECK(tool.error().find("exceed max_len 4") != std::string::npos);
}

TEST_CASE("HeadDetectorTool: every head ranked by each score, highest first", "[head_detectors]") {
    Session s = test::english_korean();
    HeadDetectorTool tool;
    REQUIRE(tool.update(s.stepper().config(), s.stepper().weights(), choice_of(8, 1, -1)));
    for (DetectorScore by : {DetectorScore::induction, DetectorScore::previous, DetectorScore::duplicate}) {
        const std::vector<RankedHead> heads = tool.ranked(by);
        REQUIRE(heads.size() == 16);  // 4 self-attentions × 4 heads
        for (size_t i = 1; i < heads.size(); ++i)
            CHECK(score_of(tool.at(heads[i - 1]), by) >= score_of(tool.at(heads[i]), by));
    }
    const std::vector<RankedHead> a = tool.ranked(DetectorScore::induction), b = tool.ranked(DetectorScore::previous);
    CHECK_FALSE((a.front().row == b.front().row && a.front().head == b.front().head && a.back().row == b.back().row &&
                 a.back().head == b.back().head));
}

TEST_CASE("DetectorSequence: a head opened on the detector's ids, then the user's sentence and mask cells back",
          "[head_detectors]") {
    Session s = test::english_korean();
    REQUIRE(s.set_src_text("i like red apples i like red apples"));
    REQUIRE(s.set_tgt_ids({1, 4, 5, 6}));  // a target edited by hand
    const std::vector<int> src = s.stepper().inputs().src_ids;
    REQUIRE(src.size() >= 8);
    REQUIRE(s.toggle_mask_cell(AttentionUse::encoder_self, 7, 2));  // a cell past the detector's 5 tokens
    const std::vector<int> ids = {1, 5, 7, 5, 7};

    DetectorSequence seq;
    CHECK_FALSE(seq.showing(s));
    REQUIRE(seq.open(s, ids));
    CHECK(seq.showing(s));
    CHECK(s.stepper().inputs().src_ids == ids);  // an encoder-decoder reads it on both sides
    CHECK(s.stepper().inputs().tgt_ids == ids);
    CHECK(s.src_text() == "i like red apples i like red apples");                       // the field keeps the sentence
    CHECK(s.stepper().inputs().mask_overrides.at(AttentionUse::encoder_self).empty());  // cut off
    REQUIRE(seq.open(s, {1, 6, 4, 6, 4}));  // another head, another seed: the user's input is kept once
    REQUIRE(seq.restore(s));
    CHECK_FALSE(seq.showing(s));
    CHECK(s.stepper().inputs().src_ids == src);
    CHECK(s.source().pieces.size() == src.size());  // as typed, not "edited by hand"
    CHECK(s.stepper().inputs().tgt_ids == std::vector<int>{1, 4, 5, 6});
    CHECK(s.stepper().inputs().mask_overrides.at(AttentionUse::encoder_self).count({7, 2}) == 1);

    REQUIRE(seq.open(s, ids));
    REQUIRE(s.set_src_text("i like apples"));  // the user's own edit ends it
    CHECK_FALSE(seq.showing(s));
}

TEST_CASE("DetectorSequence: a model without a vocabulary gets its ids back", "[head_detectors]") {
    auto s = Session::from_file(kGpt2, "49 7 23 0 41", "", 1);
    REQUIRE(s);
    const std::vector<int> mine = s->stepper().inputs().tgt_ids;
    REQUIRE(mine == std::vector<int>{49, 7, 23, 0, 41});
    DetectorSequence seq;
    REQUIRE(seq.open(*s, {49, 3, 9, 3, 9}));
    CHECK(s->stepper().inputs().tgt_ids == std::vector<int>{49, 3, 9, 3, 9});
    CHECK(s->stepper().inputs().src_ids.empty());
    REQUIRE(seq.restore(*s));
    CHECK(s->stepper().inputs().tgt_ids == mine);
}
