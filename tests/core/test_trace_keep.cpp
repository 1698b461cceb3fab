// A trace that keeps only checkpoints (trace_keep.h): the residual stream, each attention's Q, K and V, the stack
// outputs, the logits and the steps that read no step. Every other output is recomputed when asked, bit for bit
// what a trace that kept it holds; an appended token still runs one new row per step; and the policy the
// automatic choice picks follows the size of the arrays a standard trace would keep.
#include "fresh_trace.h"
#include "hf/hf_golden_support.h"
#include "step_rows.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using namespace attnlab;
using namespace attnlab::test;

namespace {

ModelConfig gpt_config() {
    ModelConfig c = small_config();
    c.arch = Arch::decoder_only;
    c.n_encoder_layers = 0;
    c.norm_first = true;
    c.tie_embeddings = true;
    c.max_len = 24;
    return c;
}

// A model of each kind of attention: an encoder-decoder (cross-attention's K and V come from the encoder), a
// GPT, and the tiny Mistral folder (RoPE, grouped K and V, a sliding window, a gated FFN).
struct Case {
    std::string name;
    ModelConfig config;
    Weights weights;
    ForwardInputs inputs;
};

std::vector<Case> cases() {
    std::vector<Case> out;
    out.push_back({"encoder-decoder", small_config(), random_weights(small_config(), 7), sample_inputs()});
    ForwardInputs gpt_in;
    gpt_in.tgt_ids = {1, 6, 11, 8, 13, 4, 9};
    out.push_back({"gpt", gpt_config(), random_weights(gpt_config(), 9), gpt_in});
    LoadedModel mistral = test::open(test::hf_fixture("hf_mistral"));
    ForwardInputs mistral_in;
    mistral_in.tgt_ids = {3, 17, 42, 8, 25, 11};
    out.push_back({"mistral", mistral.model.config, mistral.model.weights, mistral_in});
    LoadedModel gemma2 = test::open(test::hf_fixture("hf_gemma2"));  // soft-capped logits: a stage made on demand
    out.push_back({"gemma2", gemma2.model.config, gemma2.model.weights, mistral_in});
    return out;
}

Stepper stepper_keeping(const Case& c, TraceKeep keep) {
    auto s = Stepper::create(c.config, c.weights, c.inputs);
    if (!s) throw std::runtime_error(s.error().message);
    s->set_trace_keep(keep);
    return std::move(*s);
}

// The case run to its end twice: keeping the standard trace, and keeping checkpoints.
struct BothRuns {
    Stepper standard, lean;
};
BothRuns run_both(const Case& c) {
    BothRuns runs{stepper_keeping(c, TraceKeep::standard), stepper_keeping(c, TraceKeep::checkpoints)};
    runs.standard.run_all();
    runs.lean.run_all();
    return runs;
}

bool is_checkpoint(const Step& step, const Stepper& s) {
    const StepKind kind = step.record.id.kind;
    if (step.inputs.empty() || is_mask(kind) || kind == StepKind::residual || kind == StepKind::stack_output ||
        kind == StepKind::embedding_sum || kind == StepKind::embedding_norm || kind == StepKind::logits)
        return true;
    for (size_t r = 0; r < s.size(); ++r) {  // read as Q, K or V
        const Step& reader = s.step(r);
        const bool scores = reader.record.id.kind == StepKind::attention && reader.record.id.stage == AttentionStage::scores;
        for (size_t k = 0; k < reader.inputs.size(); ++k)
            if (reader.inputs[k] == step.record.id && (scores || key_input(reader.record.id) == k)) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("a checkpoint trace keeps the residual stream, Q, K, V and the logits, and nothing (H, T, T)",
          "[stepper][trace_keep]") {
    for (const Case& c : cases()) {
        INFO(c.name);
        auto [standard, lean] = run_both(c);
        CHECK(lean.trace_keep() == TraceKeep::checkpoints);
        int64_t kept = 0, keys_and_values = 0;
        for (const Step& step : lean.steps()) {
            INFO(step.path);
            CHECK((step.retention == Retention::kept) == is_checkpoint(step, lean));
            const TraceEntry* facts = lean.run_facts(step.path);
            REQUIRE(facts);
            if (step.retention == Retention::kept) {
                kept += facts->value.numel();
                keys_and_values += step.record.id.kind == StepKind::attention;
                CHECK(!(step.record.id.kind == StepKind::attention && is_score_stage(step.record.id.stage)));
            } else {
                CHECK(facts->value.empty());  // dropped once its readers ran (the probabilities, read by none, at once)
                CHECK(facts->value.rank() >= 1);
            }
        }
        CHECK(keys_and_values >= 3);
        CHECK(lean.held_floats() == kept);  // what the run holds is the checkpoints alone
        CHECK(lean.held_floats() < standard.held_floats());
    }
}

TEST_CASE("a checkpoint trace's probabilities are made when a view asks, with the facts a standard run counts",
          "[stepper][trace_keep]") {
    for (const Case& c : cases()) {
        INFO(c.name);
        auto [standard, lean] = run_both(c);
        const TraceEntry* facts = lean.run_facts("probs");
        REQUIRE(facts);
        CHECK(facts->value.empty());
        CHECK(facts->value.shape == standard.run_facts("probs")->value.shape);
        CHECK(facts->non_finite == 0);
        const uint64_t version = facts->version;
        CHECK(lean.output("probs")->data == standard.output("probs")->data);  // made now, bit for bit
        CHECK(lean.run_facts("probs")->version == version);
    }
    SECTION("logits holding ±∞: not known finite, they are made in the run and counted as a standard run counts") {
        const ModelConfig c = gpt_config();
        Weights w = random_weights(c, 9);
        Tensor head = w.at("tgt_embed.weight");  // tied: the unembedding too, where token 5's logit overflows
        std::fill_n(head.data.begin() + 5 * c.d_model, c.d_model, 3e38f);
        w.set("tgt_embed.weight", head);
        ForwardInputs in;
        in.tgt_ids = {1, 6, 11, 8};
        auto standard = Stepper::create(c, w, in), lean = Stepper::create(c, w, in);
        REQUIRE(standard);
        REQUIRE(lean);
        lean->set_trace_keep(TraceKeep::checkpoints);
        standard->run_all();
        lean->run_all();
        REQUIRE(standard->run_facts("logits")->non_finite > 0);
        CHECK(lean->run_facts("probs")->non_finite == standard->run_facts("probs")->non_finite);
        CHECK(lean->output("probs")->data == standard->output("probs")->data);
    }
}

TEST_CASE("output_rows gives a step's rows as the whole holds them, a dropped output's without holding it",
          "[stepper][trace_keep]") {
    for (const Case& c : cases()) {
        INFO(c.name);
        auto [standard, lean] = run_both(c);
        const int64_t held = lean.held_floats();
        for (const Step& step : lean.steps()) {
            INFO(step.path);
            const StepId& id = step.record.id;
            const Tensor& whole = *standard.output(id);
            const int axis = row_axis(id);
            const int64_t n = row_count(whole, axis);
            for (const auto& [from, to] : {std::pair<int64_t, int64_t>{n - 1, n}, {0, n}, {n / 2, n / 2 + 1}}) {
                std::optional<Tensor> got = lean.output_rows(id, from, to);
                REQUIRE(got);
                CHECK(bit_equal(*got, slice_rows(whole, axis, from, to)));
            }
            CHECK_FALSE(lean.output_rows(id, n - 1, n + 1));
            CHECK_FALSE(lean.output_rows(id, 1, 0));
            lean.release_views();  // a stage whose inputs were dropped was made whole, and held, as output() holds it
        }
        CHECK(lean.held_floats() == held);
        // The probabilities read only kept logits: a row of them is made alone and nothing is held.
        const std::optional<Tensor> last = lean.output_rows(StepId::head(StepKind::probs, c.config), 2, 3);
        REQUIRE(last);
        CHECK(last->shape == Shape{1, standard.output("probs")->dim(1)});
        CHECK(lean.held_floats() == held);
        CHECK(lean.run_facts("probs")->value.empty());
        lean.run_to(0);
        CHECK_FALSE(lean.output_rows(StepId::head(StepKind::probs, c.config), 0, 1));  // not run
    }
}

TEST_CASE("rows_kept_since: the rows an append or an edit left as a version held them", "[stepper][rows]") {
    ForwardInputs in;
    in.tgt_ids = {1, 6, 11, 8, 13, 4, 9};
    auto s = Stepper::create(gpt_config(), random_weights(gpt_config(), 9), in);
    REQUIRE(s);
    s->run_all();
    const StepId logits = StepId::head(StepKind::logits, gpt_config());
    const uint64_t first = s->run_facts(logits)->version;
    CHECK(s->rows_kept_since(logits, first) == kRowsUnchanged);
    in.tgt_ids.push_back(5);
    REQUIRE(s->set_tgt_ids(in.tgt_ids));
    const uint64_t appended = s->run_facts(logits)->version;
    CHECK(appended != first);
    CHECK(s->rows_kept_since(logits, first) == 7);  // the one new row computed
    in.tgt_ids[3] = 2;
    REQUIRE(s->set_tgt_ids(in.tgt_ids));
    CHECK(s->rows_kept_since(logits, appended) == 3);  // rows from the edited token on
    CHECK(s->rows_kept_since(logits, first) == 0);     // two calls back: nothing vouched for
    CHECK(s->rows_kept_since(logits, 0) == 0);
    s->run_to(0);
    CHECK(s->rows_kept_since(logits, s->next_version() - 1) == 0);  // not run
}

TEST_CASE("a checkpoint trace recomputes every stage bit for bit, in any order, holding what was asked for only",
          "[stepper][trace_keep]") {
    for (const Case& c : cases()) {
        INFO(c.name);
        auto [standard, lean] = run_both(c);
        std::vector<std::string> order;
        for (const Step& step : lean.steps()) order.push_back(step.path);
        std::mt19937 rng(11);
        for (int round = 0; round < 3; ++round) {  // in step order, from the last step back, shuffled
            if (round == 1) std::reverse(order.begin(), order.end());
            if (round == 2) std::shuffle(order.begin(), order.end(), rng);
            for (const std::string& path : order) {
                INFO(path);
                const TraceEntry* want = standard.entry(path);
                const TraceEntry* got = lean.entry(path);
                REQUIRE((want && got));
                CHECK(bit_equal(got->value, want->value));
                CHECK(got->version != 0);
                CHECK(got->non_finite == want->non_finite);
                CHECK(got->fully_masked_rows == want->fully_masked_rows);
            }
        }
        // A stage recomputed from far back (the last layer's attention weights: from its layer's input, through
        // the norm, Q, QKᵀ, ÷√D and the mask) holds itself alone afterwards, not the stages between.
        lean.run_all();  // a call drops what views held
        const int64_t base = lean.held_floats();
        const Step* weights = nullptr;
        for (const Step& step : lean.steps())
            if (step.record.id.kind == StepKind::attention && step.record.id.stage == AttentionStage::weights)
                weights = &step;
        REQUIRE(weights);
        const Tensor* w = lean.output(weights->path);
        REQUIRE(w);
        CHECK(lean.held_floats() == base + w->numel());
    }
}

TEST_CASE("a checkpoint trace appends a token by rows, as a fresh run would", "[stepper][trace_keep][rows]") {
    for (const Case& c : cases()) {
        if (c.config.has_encoder()) continue;  // the decoder-only cases: an appended prompt token
        INFO(c.name);
        Stepper lean = stepper_keeping(c, TraceKeep::checkpoints);
        lean.run_all();
        const int64_t T = static_cast<int64_t>(c.inputs.tgt_ids.size());
        std::vector<int> ids = c.inputs.tgt_ids;
        ids.push_back(5);
        REQUIRE(lean.set_tgt_ids(ids));
        CHECK(lean.trace_keep() == TraceKeep::checkpoints);
        for (size_t i = 0; i < lean.size(); ++i) {
            const Step& step = lean.step(i);
            INFO(step.path);
            const auto from = lean.last_computed_from(i);
            REQUIRE(from);
            CHECK(*from == (computes_by_rows(step) ? T : 0));
        }
        require_fresh_trace(lean);
        // Editing a middle token recomputes from there on; still the fresh run's numbers.
        ids[2] = ids[2] == 7 ? 8 : 7;
        REQUIRE(lean.set_tgt_ids(ids));
        require_fresh_trace(lean);
    }
}

TEST_CASE("switching what the trace keeps drops or recomputes outputs, and the numbers stay",
          "[stepper][trace_keep]") {
    for (const Case& c : cases()) {
        INFO(c.name);
        Stepper s = stepper_keeping(c, TraceKeep::standard);
        s.run_all();
        const int64_t standard_floats = s.held_floats();
        s.set_trace_keep(TraceKeep::checkpoints);
        CHECK(s.held_floats() < standard_floats);
        require_fresh_trace(s);
        s.set_trace_keep(TraceKeep::standard);
        CHECK(s.held_floats() == standard_floats);  // every standard output is back, recomputed
        require_fresh_trace(s);
        // A tiny trace left to choose keeps the standard set.
        s.set_trace_keep(TraceKeep::automatic);
        CHECK(s.trace_keep() == TraceKeep::standard);
        CHECK(s.held_floats() == standard_floats);
    }
}

TEST_CASE("the automatic choice keeps checkpoints once the standard trace's large arrays pass 1 GiB",
          "[stepper][trace_keep]") {
    // GPT-2 small's shape (12 layers of 12 heads, V = 50,257) and SmolLM2-135M's (30 layers of 9 heads, V = 49,152).
    auto decoder = [](int layers, int heads, int vocab) {
        ModelConfig c = gpt_config();
        c.n_decoder_layers = layers;
        c.n_heads = heads;
        c.d_model = 8 * heads;
        c.tgt_vocab_size = c.src_vocab_size = vocab;
        return c;
    };
    const ModelConfig gpt2 = decoder(12, 12, 50257), smollm = decoder(30, 9, 49152);
    auto large = [](const ModelConfig& c, int64_t T) {
        return standard_trace_large_bytes(build_forward_steps(c), c, 0, T);
    };
    // (layers · H · T² + 2 · T · V) floats: the weights of each attention, the logits and the probabilities.
    CHECK(large(gpt2, 1024) == (int64_t{12} * 12 * 1024 * 1024 + 2 * int64_t{1024} * 50257) * 4);
    CHECK(large(smollm, 1024) == (int64_t{30} * 9 * 1024 * 1024 + 2 * int64_t{1024} * 49152) * 4);
    CHECK(resolve_trace_keep(TraceKeep::automatic, large(gpt2, 1024)) == TraceKeep::standard);
    CHECK(resolve_trace_keep(TraceKeep::automatic, large(smollm, 1024)) == TraceKeep::checkpoints);
    CHECK(resolve_trace_keep(TraceKeep::automatic, large(smollm, 256)) == TraceKeep::standard);
    CHECK(resolve_trace_keep(TraceKeep::standard, large(smollm, 1024)) == TraceKeep::standard);
    // Once keeping checkpoints, an automatic trace goes back only below half the threshold: SmolLM2 at 700 tokens
    // (0.75 GiB) stays, at 512 (0.45 GiB) goes back.
    CHECK(resolve_trace_keep(TraceKeep::automatic, large(smollm, 700)) == TraceKeep::standard);
    CHECK(resolve_trace_keep(TraceKeep::automatic, large(smollm, 700), TraceKeep::checkpoints) == TraceKeep::checkpoints);
    CHECK(resolve_trace_keep(TraceKeep::automatic, large(smollm, 512), TraceKeep::checkpoints) == TraceKeep::standard);
    CHECK(resolve_trace_keep(TraceKeep::checkpoints, 0) == TraceKeep::checkpoints);
    for (TraceKeep k : {TraceKeep::automatic, TraceKeep::standard, TraceKeep::checkpoints})
        CHECK(trace_keep_named(to_string(k)) == k);
    CHECK(!trace_keep_named("all"));
}
