// Head detectors (core/analysis/head_detectors): the repeated random sequence, the three scores of
// hand-made weights against hand-computed values, and detect_heads on the bundled en-ko model and
// the GPT-2 fixture against the stepper's own weights.
#include "analysis/head_detectors.h"
#include "hf/open_model.h"
#include "io/model_file.h"
#include "stepper.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace attnlab;

namespace {

// (H, N, N) with every row's weight on one key: key_of(h, q).
template <class KeyOf>
Tensor one_hot_weights(int64_t H, int64_t N, KeyOf key_of) {
    Tensor w({H, N, N});
    for (int64_t h = 0; h < H; ++h)
        for (int64_t q = 0; q < N; ++q) w.slice(h)(q, key_of(h, q)) = 1.0f;
    return w;
}

Model load_en_ko() {
    auto m = io::read_model(std::string(ATTNLAB_SOURCE_DIR) + "/assets/models/en-ko.safetensors");
    if (!m) FAIL(m.error().message);
    return std::move(*m);
}

}  // namespace

TEST_CASE("repeated random tokens: the second half is the first, special ids never drawn, one seed one sequence",
          "[analysis][head_detectors]") {
    const std::vector<int> excluded = {0, 1, 2, 3};
    const std::vector<int> ids = repeated_random_tokens(10, 50, 7, excluded);
    REQUIRE(ids.size() == 100);
    CHECK(std::equal(ids.begin(), ids.begin() + 50, ids.begin() + 50));
    const std::set<int> seen(ids.begin(), ids.end());
    CHECK(seen == std::set<int>{4, 5, 6, 7, 8, 9});  // 50 draws from 6 ids: every allowed id, no other
    CHECK(repeated_random_tokens(10, 50, 7, excluded) == ids);
    CHECK(repeated_random_tokens(10, 50, 8, excluded) != ids);
    // Pinned: std::mt19937_64 is the same everywhere and the mapping to ids is our own, so these are the
    // ids under libstdc++, libc++ and Emscripten alike.
    CHECK(repeated_random_tokens(1000, 4, 1, {}) == (std::vector<int>{528, 462, 930, 246, 528, 462, 930, 246}));
    CHECK(repeated_random_tokens(10, 0, 7, excluded).empty());
}

TEST_CASE("head detector scores of a perfect induction head and a perfect previous-token head",
          "[analysis][head_detectors]") {
    // A BOS at 0, x_0..x_3 at 1..4 and again at 5..8 (p0 = 1, L = 4, N = 9).
    const RepeatLayout layout{1, 4};
    // Head 0: each second-copy query q = 5 + i on key 2 + i = q − 3 (just after x_i's first occurrence),
    // every other query on the BOS. Head 1: every query q ≥ 1 on q − 1, query 0 on itself.
    const Tensor w = one_hot_weights(2, 9, [](int64_t h, int64_t q) -> int64_t {
        if (h == 0) return q >= 5 ? q - 3 : 0;
        return q >= 1 ? q - 1 : 0;
    });
    const std::vector<HeadScores> s = head_detector_scores(w, layout);
    REQUIRE(s.size() == 2);
    CHECK(s[0].induction == 1.0f);
    CHECK(s[0].duplicate_token == 0.0f);
    CHECK(s[0].previous_token == Approx(1.0 / 8));  // of queries 1..8 only query 1 (on the BOS at 0)
    CHECK(s[1].previous_token == 1.0f);
    CHECK(s[1].induction == 0.0f);  // q − 1 = 4 + i is not 2 + i
    CHECK(s[1].duplicate_token == 0.0f);

    // With L = 2 the key just after x_i's first occurrence is the query's previous token: q = 3 + i, key 2 + i.
    const std::vector<HeadScores> short_copies = head_detector_scores(w, RepeatLayout{1, 2});
    CHECK(short_copies[1].induction == 1.0f);
}

TEST_CASE("head detector scores of uniform causal attention, by hand", "[analysis][head_detectors]") {
    // weights[q][k] = 1/(q+1) for k ≤ q: every key a query may see gets the same share. p0 = 1, L = 4, N = 9.
    Tensor w({1, 9, 9});
    for (int64_t q = 0; q < 9; ++q)
        for (int64_t k = 0; k <= q; ++k) w.slice(0)(q, k) = 1.0f / static_cast<float>(q + 1);
    const std::vector<HeadScores> s = head_detector_scores(w, RepeatLayout{1, 4});
    REQUIRE(s.size() == 1);
    // Second-copy queries 5..8 each give 1/(q+1) to their induction key and to their duplicate key.
    const double second_copy = (1.0 / 6 + 1.0 / 7 + 1.0 / 8 + 1.0 / 9) / 4;
    CHECK(s[0].induction == Approx(second_copy));
    CHECK(s[0].duplicate_token == Approx(second_copy));
    // Queries 1..8 give 1/(q+1) to the previous token.
    const double previous = (1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6 + 1.0 / 7 + 1.0 / 8 + 1.0 / 9) / 8;
    CHECK(s[0].previous_token == Approx(previous));

    // Without a prefix (p0 = 0, L = 4, N = 8): queries 4..7 of the same weights.
    Tensor w8({1, 8, 8});
    for (int64_t q = 0; q < 8; ++q)
        for (int64_t k = 0; k <= q; ++k) w8.slice(0)(q, k) = 1.0f / static_cast<float>(q + 1);
    const std::vector<HeadScores> s8 = head_detector_scores(w8, RepeatLayout{0, 4});
    CHECK(s8[0].induction == Approx((1.0 / 5 + 1.0 / 6 + 1.0 / 7 + 1.0 / 8) / 4));
}

TEST_CASE("detect_heads on the bundled en-ko model: every self-attention, the stepper's weights by hand",
          "[analysis][head_detectors]") {
    const Model model = load_en_ko();
    const ModelConfig& c = model.config;
    HeadDetectorOptions options;
    options.length = 12;
    options.seed = 5;
    options.bos = c.sos_id;
    auto scores = detect_heads(c, model.weights, options);
    REQUIRE(scores);
    const std::vector<int>& ids = scores->ids;
    REQUIRE(ids.size() == 25);
    CHECK(ids[0] == c.sos_id);
    CHECK(std::equal(ids.begin() + 1, ids.begin() + 13, ids.begin() + 13));
    for (size_t i = 1; i < ids.size(); ++i) {
        CHECK(ids[i] != c.pad_id);
        CHECK(ids[i] != c.sos_id);
        CHECK(ids[i] != c.eos_id);
        CHECK(ids[i] != c.unk_id);
        CHECK(ids[i] < std::min(c.src_vocab_size, c.tgt_vocab_size));
    }
    CHECK(scores->layout.first == 1);
    CHECK(scores->layout.length == 12);

    // The encoder's and the decoder's self-attentions, in step order; no cross-attention.
    REQUIRE(static_cast<int>(scores->layers.size()) == c.n_encoder_layers + c.n_decoder_layers);
    for (size_t l = 0; l < scores->layers.size(); ++l) {
        const auto& layer = scores->layers[l];
        const bool encoder = static_cast<int>(l) < c.n_encoder_layers;
        CHECK(layer.attention.use == (encoder ? AttentionUse::encoder_self : AttentionUse::decoder_self));
        CHECK(layer.attention.layer == (encoder ? static_cast<int>(l) : static_cast<int>(l) - c.n_encoder_layers));
        REQUIRE(static_cast<int>(layer.heads.size()) == c.n_heads);
        for (const HeadScores& h : layer.heads)
            for (float v : {h.induction, h.previous_token, h.duplicate_token}) {
                CHECK(v >= 0.0f);
                CHECK(v <= 1.0f);
            }
    }

    // Head 2 of the last decoder self-attention by hand from a stepper run on the same ids.
    ForwardInputs in;
    in.src_ids = ids;
    in.tgt_ids = ids;
    auto stepper = Stepper::create(c, model.weights, in);
    REQUIRE(stepper);
    stepper->run_all();
    const AttentionSite site{AttentionUse::decoder_self, c.n_decoder_layers - 1};
    const Tensor* w = stepper->output(StepId::attention_at(site, AttentionStage::weights));
    REQUIRE(w);
    const ConstMatMap p = w->slice(2);  // (25, 25)
    double induction = 0, duplicate = 0, previous = 0;
    for (int i = 0; i < 12; ++i) {
        induction += p(13 + i, 1 + i + 1);
        duplicate += p(13 + i, 1 + i);
    }
    for (int q = 1; q < 25; ++q) previous += p(q, q - 1);
    const HeadScores& got = scores->layers.back().heads[2];
    CHECK(scores->layers.back().attention == site);
    CHECK(got.induction == Approx(induction / 12).epsilon(1e-6));
    CHECK(got.duplicate_token == Approx(duplicate / 12).epsilon(1e-6));
    CHECK(got.previous_token == Approx(previous / 24).epsilon(1e-6));
}

TEST_CASE("detect_heads on a decoder-only model: the target's self-attentions, the length capped by max_len",
          "[analysis][head_detectors]") {
    auto gpt2 = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_gpt2");
    REQUIRE(gpt2);
    const ModelConfig& c = gpt2->model.config;  // max_len 12, BOS = EOS = 49
    HeadDetectorOptions options;
    options.bos = 49;
    auto scores = detect_heads(c, gpt2->model.weights, options);
    REQUIRE(scores);
    CHECK(scores->layout.length == 5);  // (12 − 1) / 2, below the default 20
    CHECK(scores->ids.size() == 11);
    CHECK(std::count(scores->ids.begin(), scores->ids.end(), 49) == 1);  // the BOS only: 49 is a special id
    REQUIRE(static_cast<int>(scores->layers.size()) == c.n_decoder_layers);
    for (const auto& layer : scores->layers) CHECK(layer.attention.use == AttentionUse::decoder_self);

    // Without a BOS the copies start at 0; the same seed draws the same random ids.
    options.bos.reset();
    options.length = 5;
    auto plain = detect_heads(c, gpt2->model.weights, options);
    REQUIRE(plain);
    CHECK(plain->layout.first == 0);
    CHECK(plain->ids == std::vector<int>(scores->ids.begin() + 1, scores->ids.end()));
}

TEST_CASE("detect_heads refuses what it cannot run in one line", "[analysis][head_detectors]") {
    auto gpt2 = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/hf_gpt2");
    REQUIRE(gpt2);
    const ModelConfig& c = gpt2->model.config;
    const auto error_of = [&](HeadDetectorOptions o, ModelConfig config) {
        auto r = detect_heads(config, gpt2->model.weights, o);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find('\n') == std::string::npos);
        return r.error().message;
    };
    HeadDetectorOptions o;
    o.length = 1;
    CHECK(error_of(o, c).find("at least 2") != std::string::npos);
    o.length = 7;  // 14 > max_len 12
    CHECK(error_of(o, c).find("exceed max_len 12") != std::string::npos);
    o.length = 6;  // 12 fits, but not after a BOS
    o.bos = 49;
    CHECK(error_of(o, c).find("exceed max_len 12") != std::string::npos);
    o.length = 3;
    o.bos = 50;
    CHECK(error_of(o, c).find("BOS id 50") != std::string::npos);
    // Every id special: nothing to draw from.
    ModelConfig specials_only = c;
    specials_only.tgt_vocab_size = 4;
    specials_only.pad_id = 0, specials_only.sos_id = 1, specials_only.eos_id = 2, specials_only.unk_id = 3;
    o.bos.reset();
    CHECK(error_of(o, specials_only).find("no token besides") != std::string::npos);
}
