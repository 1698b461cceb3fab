// A decoder-only model's one sequence is the prompt: an over-long one is refused under that name, not as a
// "target" (the second trial fed GPT-2 a 7200-token prompt file and was told the target was too long).
#include "test_support.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::test;

namespace {

ModelConfig decoder_only_config() {
    ModelConfig c = small_config();
    c.arch = Arch::decoder_only;
    c.n_encoder_layers = 0;
    c.tie_embeddings = true;
    return c;
}

}  // namespace

TEST_CASE("a decoder-only model calls its over-long sequence the prompt; a translator calls it the target",
          "[stepper][bad_input]") {
    const ModelConfig dec = decoder_only_config();
    const std::vector<int> too_long(static_cast<size_t>(dec.max_len) + 1, 3);  // max_len 16, so 17 tokens

    ForwardInputs in;
    in.tgt_ids = too_long;
    auto refused = Stepper::create(dec, random_weights(dec, 7), in);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message == "the prompt has 17 tokens, more than max_len 16");

    in.tgt_ids = {1, 2, 3};
    Stepper s = make_stepper(dec, in);
    auto edit = s.set_tgt_ids(too_long);
    REQUIRE_FALSE(edit);
    CHECK(edit.error().message == "the prompt has 17 tokens, more than max_len 16");
    auto empty = s.set_tgt_ids({});
    REQUIRE_FALSE(empty);
    CHECK(empty.error().message == "the prompt is empty");

    Stepper translator = make_stepper(small_config());
    auto target = translator.set_tgt_ids(too_long);
    REQUIRE_FALSE(target);
    CHECK(target.error().message == "target has 17 tokens, more than max_len 16");
}
