// The stepper's row-by-row re-run after an edit of the ids: in a causal stack an edit of token i
// recomputes rows ≥ i of every step, appending a token computes one new row per step, and the trace
// is then bit for bit the one a fresh run writes (every step, on-demand stages included, with the
// same counts of non-finite values and fully masked rows).
#include "fresh_trace.h"
#include "step_rows.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace attnlab;
using namespace attnlab::test;

namespace {

ModelConfig decoder_config(int vocab = 48) {
    ModelConfig c = small_config();
    c.arch = Arch::decoder_only;
    c.n_encoder_layers = 0;
    c.tie_embeddings = true;
    c.norm_first = true;
    c.activation = Activation::gelu_tanh;
    c.positional = Positional::learned;
    c.max_len = 40;
    c.src_vocab_size = vocab;
    c.tgt_vocab_size = vocab;
    return c;
}

ForwardInputs target(std::vector<int> ids) {
    ForwardInputs in;
    in.tgt_ids = std::move(ids);
    return in;
}

std::vector<int> ids_of_length(size_t n, int vocab) {
    std::vector<int> ids(n);
    for (size_t i = 0; i < n; ++i) ids[i] = 4 + static_cast<int>((i * 7 + 3) % static_cast<size_t>(vocab - 4));
    ids[0] = 1;  // <sos>
    return ids;
}

// The first row the last edit computed of each step, by path (absent: none).
std::map<std::string, int64_t> computed_from(const Stepper& s) {
    std::map<std::string, int64_t> rows;
    for (size_t i = 0; i < s.cursor(); ++i)
        if (auto r = s.last_computed_from(i)) rows[s.step(i).path] = *r;
    return rows;
}

}  // namespace

TEST_CASE("an edit of token i in a causal stack recomputes rows >= i of every step", "[stepper][rows]") {
    const ModelConfig c = decoder_config();
    auto s = Stepper::create(c, random_weights(c, 3), target(ids_of_length(24, c.tgt_vocab_size)));
    REQUIRE(s);
    s->run_all();
    for (const int i : {13, 1, 23}) {
        INFO("token " << i);
        std::vector<int> ids = s->inputs().tgt_ids;
        ids[static_cast<size_t>(i)] = ids[static_cast<size_t>(i)] == 9 ? 10 : 9;
        REQUIRE(s->set_tgt_ids(ids));
        const auto rows = computed_from(*s);
        for (const Step& step : s->steps()) {
            INFO(step.path);
            const auto it = rows.find(step.path);
            if (!computes_by_rows(step)) {
                // The masks and positions did not change; the token embedding is looked up whole.
                CHECK((it != rows.end()) == (step.record.id.kind == StepKind::token_embedding));
                continue;
            }
            REQUIRE(it != rows.end());
            CHECK(it->second == i);
        }
        require_fresh_trace(*s);
    }
}

TEST_CASE("appending a token computes one new row per step and reuses the rest", "[stepper][rows]") {
    const ModelConfig c = decoder_config();
    auto s = Stepper::create(c, random_weights(c, 5), target(ids_of_length(31, c.tgt_vocab_size)));
    REQUIRE(s);
    s->run_all();
    const Tensor logits_before = *s->output("logits");
    std::vector<int> ids = s->inputs().tgt_ids;
    ids.push_back(17);
    REQUIRE(s->set_tgt_ids(ids));
    for (const Step& step : s->steps()) {
        INFO(step.path);
        const auto from = s->last_computed_from(s->find(step.path).value());
        REQUIRE(from);  // every step gained a row (the masks a row and a column)
        CHECK(*from == (computes_by_rows(step) ? 31 : 0));
    }
    // The old rows of the logits are the old numbers themselves.
    const Tensor& logits = *s->output("logits");
    CHECK(std::memcmp(logits.data.data(), logits_before.data.data(), logits_before.data.size() * sizeof(float)) == 0);
    require_fresh_trace(*s);

    SECTION("and dropping it again recomputes nothing but the shapes") {
        ids.pop_back();
        REQUIRE(s->set_tgt_ids(ids));
        for (const auto& [path, first] : computed_from(*s)) {
            INFO(path);
            CHECK((first == 31 || first == 0));
        }
        require_fresh_trace(*s);
    }
}

TEST_CASE("row re-runs are bit for bit a fresh run at widths that are not whole packets", "[stepper][rows]") {
    ModelConfig c = decoder_config(37);  // logits rows of 37 floats
    c.d_model = 12;
    c.n_heads = 3;
    c.d_ff = 20;
    c.activation = Activation::gelu;
    c.positional = Positional::sinusoidal;
    auto s = Stepper::create(c, random_weights(c, 11), target(ids_of_length(29, 37)));
    REQUIRE(s);
    s->run_all();
    for (const int i : {21, 5}) {
        std::vector<int> ids = s->inputs().tgt_ids;
        ids[static_cast<size_t>(i)] = ids[static_cast<size_t>(i)] == 9 ? 10 : 9;
        REQUIRE(s->set_tgt_ids(ids));
        for (const auto& [path, first] : computed_from(*s)) {
            INFO(path);
            if (path != "tgt.embed") CHECK(first == i);
        }
        require_fresh_trace(*s);
    }
    std::vector<int> ids = s->inputs().tgt_ids;
    ids.push_back(3);
    REQUIRE(s->set_tgt_ids(ids));
    require_fresh_trace(*s);
}

TEST_CASE("row re-runs in an encoder-decoder follow each mask", "[stepper][rows]") {
    ModelConfig c = small_config();
    c.max_len = 24;
    ForwardInputs in;
    in.src_ids = {5, 9, 7, 12, 2, 6, 8, 0, 0};  // padded source
    in.tgt_ids = {1, 6, 11, 8, 4, 13, 7, 9};
    auto s = Stepper::create(c, random_weights(c, 2), in);
    REQUIRE(s);
    s->run_all();

    SECTION("a target token: the decoder's rows from it on, the encoder untouched") {
        std::vector<int> ids = s->inputs().tgt_ids;
        ids[5] = 14;
        REQUIRE(s->set_tgt_ids(ids));
        for (const auto& [path, first] : computed_from(*s)) {
            INFO(path);
            CHECK(path.rfind("encoder", 0) != 0);
            if (path != "tgt.embed") CHECK(first == 5);
        }
        require_fresh_trace(*s);
    }
    SECTION("a source token: every key of the encoder sees it, so every row") {
        std::vector<int> ids = s->inputs().src_ids;
        ids[4] = 3;
        REQUIRE(s->set_src_ids(ids));
        const auto rows = computed_from(*s);
        CHECK(rows.at("encoder.layers.1.self_attn.weights") == 0);
        CHECK(rows.at("decoder.layers.0.cross_attn.weights") == 0);
        CHECK(rows.count("decoder.layers.0.self_attn.weights") == 0);
        require_fresh_trace(*s);
    }
    SECTION("a padding token given a word: the padding mask changes the keys every row sees") {
        std::vector<int> ids = s->inputs().src_ids;
        ids[7] = 4;
        REQUIRE(s->set_src_ids(ids));
        require_fresh_trace(*s);
    }
}

TEST_CASE("a mask cell that lets an early row see later keys makes that row recompute", "[stepper][rows]") {
    const ModelConfig c = decoder_config();
    auto s = Stepper::create(c, random_weights(c, 4), target(ids_of_length(20, c.tgt_vocab_size)));
    REQUIRE(s);
    REQUIRE(s->set_mask_cell(AttentionUse::decoder_self, 6, 15, true));  // row 6 sees key 15
    s->run_all();
    std::vector<int> ids = s->inputs().tgt_ids;
    ids[12] = ids[12] == 9 ? 10 : 9;
    REQUIRE(s->set_tgt_ids(ids));
    const auto rows = computed_from(*s);
    CHECK(rows.at("decoder.layers.0.self_attn.weights") == 6);
    CHECK(rows.at("decoder.layers.0.self_attn.q") == 12);
    CHECK(rows.at("decoder.layers.1.self_attn.q") == 6);  // row 6 of layer 0 changed, so from there on
    require_fresh_trace(*s);
}

TEST_CASE("row re-runs stop at the cursor and keep the on-demand stages exact", "[stepper][rows]") {
    const ModelConfig c = decoder_config();
    auto s = Stepper::create(c, random_weights(c, 8), target(ids_of_length(18, c.tgt_vocab_size)));
    REQUIRE(s);
    for (const char* stop : {"decoder.layers.0.self_attn.scaled", "decoder.layers.1.ffn.activation", "probs"}) {
        INFO(stop);
        s->run_to(s->find(stop).value() + 1);
        std::vector<int> ids = s->inputs().tgt_ids;
        ids[9] = ids[9] == 9 ? 10 : 9;
        ids.push_back(21);
        REQUIRE(s->set_tgt_ids(ids));
        require_fresh_trace(*s);
        CHECK(s->held_floats() > 0);
    }
}

TEST_CASE("a trace holding a NaN re-runs whole steps", "[stepper][rows]") {
    const ModelConfig c = decoder_config();
    Weights w = random_weights(c, 9);
    Tensor e = w.at("tgt_embed.weight");
    e.data[static_cast<size_t>(7 * c.d_model)] = std::numeric_limits<float>::quiet_NaN();  // token 7's embedding
    w.set("tgt_embed.weight", e);
    std::vector<int> ids = ids_of_length(12, c.tgt_vocab_size);
    ids[3] = 7;
    auto s = Stepper::create(c, w, target(ids));
    REQUIRE(s);
    s->run_all();
    REQUIRE(s->first_non_finite_step());
    ids[8] = ids[8] == 9 ? 10 : 9;
    REQUIRE(s->set_tgt_ids(ids));
    CHECK(s->last_computed_from(s->find("decoder.layers.0.self_attn.weights").value()) == 0);
    require_fresh_trace(*s);
}

TEST_CASE("a token whose Q and K overflow QKᵀ, appended after others, is counted as a fresh run counts it",
          "[stepper][rows]") {
    ModelConfig c = decoder_config();
    c.norm_first = false;  // the embeddings reach Q and K unnormalised
    Weights w = random_weights(c, 11);
    Tensor e = w.at("tgt_embed.weight");
    std::fill_n(e.data.begin() + 17 * c.d_model, c.d_model, 1e20f);  // token 17's embedding
    w.set("tgt_embed.weight", e);
    std::vector<int> ids = ids_of_length(20, c.tgt_vocab_size);
    std::replace(ids.begin(), ids.end(), 17, 18);
    auto s = Stepper::create(c, w, target(ids));
    REQUIRE(s);
    s->run_all();
    REQUIRE_FALSE(s->first_non_finite_step());
    for (const int id : {5, 6, 7}) {  // the bound's row magnitudes carried three times
        ids.push_back(id);
        REQUIRE(s->set_tgt_ids(ids));
        require_fresh_trace(*s);
    }
    ids.push_back(17);
    REQUIRE(s->set_tgt_ids(ids));
    CHECK(s->run_facts("decoder.layers.0.self_attn.scores")->non_finite > 0);
    require_fresh_trace(*s);
}

TEST_CASE("step rows: slices, merges and what changed", "[stepper][rows]") {
    Tensor t({2, 3, 2});  // (H, N, W)
    for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = static_cast<float>(i);
    const Tensor tail = slice_rows(t, 1, 2);
    CHECK(tail.shape == Shape{2, 1, 2});
    CHECK(tail.data[0] == 4.0f);
    CHECK(tail.data[2] == 10.0f);
    Tensor fresh({2, 2, 3});
    for (float& x : fresh.data) x = -1.0f;
    const Tensor merged = merge_rows(t, fresh, 1, 2, {2, 4, 3});  // a row more, a column more
    CHECK(merged.data[0] == 0.0f);
    CHECK(merged.data[2] == 0.0f);  // the new column of a kept row
    CHECK(merged.data[3] == 2.0f);
    CHECK(merged.data[6] == -1.0f);
    CHECK(merged.data[12] == 6.0f);
    Tensor one_row({2, 1, 2});
    for (float& x : one_row.data) x = -2.0f;
    const Tensor shrunk = merge_rows(merged, one_row, 1, 1, {2, 2, 2});  // a row fewer, a column fewer
    CHECK(std::vector<float>(shrunk.data.begin(), shrunk.data.end()) == std::vector<float>{0, 1, -2, -2, 6, 7, -2, -2});
    Tensor wide({2, 3});
    const Tensor mixed = merge_rows(Tensor({3, 4}), wide, 0, 2, {4, 3});  // a row more, a column fewer
    CHECK(mixed.shape == Shape{4, 3});

    Tensor a({3, 2}), b({3, 3});
    CHECK(first_differing_row(a, a) == kRowsUnchanged);
    CHECK(first_differing_row(a, b) == 3);  // a zero column more: no row differs, the shape does
    b.data[4] = 1.0f;                       // row 1's new column
    CHECK(first_differing_row(a, b) == 1);
    Tensor mask({3, 4});
    mask.data[1 * 4 + 3] = 1.0f;
    CHECK(first_row_seeing(mask, 3) == 1);
    CHECK(first_row_seeing(mask, 4) == kRowsUnchanged);
}
