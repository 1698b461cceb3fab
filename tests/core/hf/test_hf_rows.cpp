// The row-by-row re-run on the Hugging Face families: GPT-2 (causal: rows from the edited token on,
// one row for an appended token) and BERT (every key seen by every query: all rows), each bit for bit
// a fresh run.
#include "../fresh_trace.h"
#include "hf/open_model.h"
#include "hf_test_folders.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using test::hf_fixture;

namespace {

Stepper traced(const std::string& fixture, ForwardInputs inputs) {
    auto loaded = open_model(hf_fixture(fixture));
    REQUIRE(loaded);
    auto s = Stepper::create(loaded->model.config, loaded->model.weights, std::move(inputs));
    REQUIRE(s);
    s->run_all();
    return std::move(*s);
}

}  // namespace

TEST_CASE("GPT-2: an edited token re-runs the rows from it on, an appended one a row", "[hf][rows]") {
    ForwardInputs in;
    in.tgt_ids = {15, 3, 40, 8, 22, 7, 31, 2, 11};
    Stepper s = traced("hf_gpt2", in);
    std::vector<int> ids = in.tgt_ids;
    ids[4] = 23;
    REQUIRE(s.set_tgt_ids(ids));
    const size_t layer1_q = s.find("decoder.layers.1.self_attn.q").value();
    CHECK(s.last_computed_from(layer1_q) == 4);
    CHECK(s.last_computed_from(s.find("probs").value()) == 4);
    test::require_fresh_trace(s);
    ids.push_back(5);
    REQUIRE(s.set_tgt_ids(ids));
    CHECK(s.last_computed_from(layer1_q) == 9);
    CHECK(s.last_computed_from(s.find("decoder.layers.1.self_attn.weights").value()) == 9);
    test::require_fresh_trace(s);
}

TEST_CASE("BERT: every query sees every key, so an edited token re-runs every row", "[hf][rows]") {
    ForwardInputs in;
    in.src_ids = {2, 14, 9, 17, 6, 3};
    Stepper s = traced("hf_bert", in);
    std::vector<int> ids = in.src_ids;
    ids[4] = 12;
    REQUIRE(s.set_src_ids(ids));
    CHECK(s.last_computed_from(s.find("encoder.layers.0.self_attn.q").value()) == 4);
    CHECK(s.last_computed_from(s.find("encoder.layers.0.self_attn.weights").value()) == 0);
    CHECK(s.last_computed_from(s.find("encoder.layers.1.self_attn.q").value()) == 0);
    test::require_fresh_trace(s);
}

TEST_CASE("Llama-template families: rotated rows keep their positions in a row re-run", "[hf][rows]") {
    // RoPE turns row r by its position: a re-run from row 4 must turn its rows by 4, 5, … (StepContext::first_row),
    // and Mistral's window must hide from rows past 4 + W only keys they could not see anyway.
    for (const char* fixture : {"hf_llama", "hf_llama3_scaled", "hf_mistral", "hf_qwen3"}) {
        INFO(fixture);
        ForwardInputs in;
        in.tgt_ids = {1, 14, 9, 17, 6, 3, 22, 8, 30};
        Stepper s = traced(fixture, in);
        std::vector<int> ids = in.tgt_ids;
        ids[4] = 12;
        REQUIRE(s.set_tgt_ids(ids));
        CHECK(s.last_computed_from(s.find("decoder.layers.1.self_attn.q_rot").value()) == 4);
        CHECK(s.last_computed_from(s.find("decoder.layers.1.self_attn.k_rot").value()) == 4);
        test::require_fresh_trace(s);
        ids.push_back(5);
        REQUIRE(s.set_tgt_ids(ids));
        CHECK(s.last_computed_from(s.find("decoder.layers.0.self_attn.q_rot").value()) == 9);
        CHECK(s.last_computed_from(s.find("logits").value()) == 9);
        test::require_fresh_trace(s);
    }
}
