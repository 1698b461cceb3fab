// The loss form's starting fields (app/model/loss_choice): picking "one token" or "logit difference" starts
// at the last position on the token the model predicts there (B: its runner-up), which the session accepts;
// a token of a model without a vocabulary is named by its id.
#include "decode.h"
#include "loss_choice.h"
#include "session_support.h"

#include <algorithm>
#include <numeric>

using namespace attnlab;
using namespace attnlab::gui;
using namespace attnlab::gui::test;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures";

// The tiny en → ko session with a target of 5 tokens, run to the forward's end.
Session translating() {
    Session s = english_korean();
    REQUIRE(s.set_tgt_text("나 는 사과 를"));
    s.run_to(s.stepper().size());
    return s;
}

// The ids of one row of logits (N, V), most probable first.
std::vector<int> ranked(const Tensor& logits, int64_t row) {
    std::vector<int> ids(static_cast<size_t>(logits.dim(1)));
    std::iota(ids.begin(), ids.end(), 0);
    const RowVec values = logits.row(row);
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return values[a] > values[b]; });
    return ids;
}

}  // namespace

TEST_CASE("one token and logit difference start at the last position on the predicted token", "[app][loss]") {
    Session s = translating();
    const Tensor* logits = s.stepper().output(StepId::head(StepKind::logits, s.stepper().config()));  // (T, V)
    REQUIRE(logits);
    const int64_t last = logits->dim(0) - 1;
    REQUIRE(last > 0);
    const std::vector<int> order = ranked(*logits, last);

    const LossSpec token = loss_of_kind(s, s.loss(), LossKind::token);
    CHECK(token.kind == LossKind::token);
    CHECK(token.position == last);
    CHECK(token.token == greedy_next(*logits, last, s.stepper().config()));
    CHECK(token.token != s.stepper().config().pad_id);
    CHECK(s.set_loss(token));

    const LossSpec diff = loss_of_kind(s, token, LossKind::logit_diff);
    CHECK(diff.position == last);  // kept from the one-token loss
    CHECK(diff.token == token.token);
    CHECK(diff.other != diff.token);
    CHECK(diff.other == (order[0] == diff.token ? order[1] : order[0]));
    CHECK(s.set_loss(diff));

    CHECK(loss_of_kind(s, diff, LossKind::next_token).to_string() == "next-token");
}

TEST_CASE("a loss the user set keeps its position and token when the kind changes", "[app][loss]") {
    Session s = translating();
    const LossSpec mine{LossKind::token, 6, -1, 2};
    const LossSpec diff = loss_of_kind(s, mine, LossKind::logit_diff);
    CHECK(diff.position == 2);
    CHECK(diff.token == 6);
    const Tensor* logits = s.stepper().output(StepId::head(StepKind::logits, s.stepper().config()));
    REQUIRE(logits);
    const std::vector<int> order = ranked(*logits, 2);
    CHECK(diff.other == (order[0] == 6 ? order[1] : order[0]));
}

TEST_CASE("the loss form names a token by its text, or by its id without a vocabulary", "[app][loss]") {
    Session s = translating();
    CHECK(loss_token_name(s, 6) == "사과");  // the target's vocabulary: the decoder's logits
    auto bert = Session::from_file(kFixtures + "/hf_bert", "1 14 9 17 6", "", 1);
    REQUIRE(bert);
    REQUIRE_FALSE(bert->model().src_vocab);
    CHECK(loss_token_name(*bert, 2023) == "#2023");
    CHECK(loss_token_name(*bert, 7) == "#7");
}

TEST_CASE("an encoder-only model's default loss is the token at position 1 of the ids it reads", "[app][loss]") {
    auto bert = Session::from_file(kFixtures + "/hf_bert", "2 7 4 9 3", "", 1);
    REQUIRE(bert);
    CHECK(bert->loss().kind == LossKind::token);
    CHECK(bert->loss().position == 1);
    CHECK(bert->loss().token == 7);  // the id there, not the starting input's
    REQUIRE(bert->set_src_ids({2, 11, 4}));
    CHECK(bert->loss().token == 11);  // still the default: it follows the ids
    REQUIRE(bert->set_loss({LossKind::token, 4, -1, 2}));
    REQUIRE(bert->set_src_ids({2, 12, 4}));
    CHECK(bert->loss().to_string() == "token:4@2");  // a loss the user chose stays
}
