// Activation patching (core/analysis/activation_patching, Stepper::patch_output) against the PyTorch oracle of
// tests/golden/make_patching_golden.py (fixtures/patching.json: GPT-2, Llama, Marian, BERT, ours post-LN and
// pre-LN; logit, prob and logit-diff metrics; the encoder's and the cross-attention's pieces): the exact grids and
// the gradient estimates; a patch of a piece with its own value changing nothing; the row re-run's grids equal to
// whole re-runs, bit for bit (GPT-2, and the bundled en-ko model's encoder and cross-attention pieces); the undo
// restoring every output; the one-line errors.
#include "analysis/activation_patching.h"
#include "analysis/logit_attribution.h"
#include "backward/loss.h"
#include "hf/open_model.h"
#include "stepper.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

std::string model_path(const std::string& fixture) {
    return fixture.rfind("hf_", 0) == 0 ? kFixtures + fixture : kFixtures + fixture + ".model.safetensors";
}

Stepper run_model(const std::string& path, std::vector<int> src, std::vector<int> tgt, std::vector<int> types = {}) {
    auto loaded = open_model(path);
    REQUIRE(loaded);
    ForwardInputs inputs;
    inputs.src_ids = std::move(src);
    inputs.tgt_ids = std::move(tgt);
    inputs.src_token_types = std::move(types);
    auto stepper = Stepper::create(loaded->model.config, loaded->model.weights, inputs);
    REQUIRE(stepper);
    stepper->run_all();
    return std::move(*stepper);
}

Stepper run_fixture(const std::string& fixture, std::vector<int> src, std::vector<int> tgt,
                    std::vector<int> types = {}) {
    return run_model(model_path(fixture), std::move(src), std::move(tgt), std::move(types));
}

// The stepper of the corrupted run (the clean run's ids changed by the row re-run), the clean metric and pieces.
struct Runs {
    Stepper stepper;
    double clean = 0.0;
    std::vector<Tensor> pieces;
};

Runs runs(const nlohmann::json& c, PatchPiece piece, const AttributionMetric& metric) {
    Stepper s = run_fixture(c.at("fixture"), c.at("src_ids"), c.at("tgt_ids"), c.at("src_token_types"));
    auto clean = metric_value(s, metric);
    REQUIRE(clean);
    auto steps = patch_steps(s, piece);
    REQUIRE(steps);
    std::vector<Tensor> pieces = clean_pieces(s, *steps);
    if (s.config().has_encoder())
        REQUIRE(s.set_src_ids(c.at("corrupt_src_ids")));
    else
        REQUIRE(s.set_tgt_ids(c.at("corrupt_tgt_ids")));
    return {std::move(s), *clean, std::move(pieces)};
}

bool close(double got, double want) { return std::fabs(got - want) <= 1e-4 + 1e-4 * std::fabs(want); }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

Stepper gpt2() { return run_fixture("hf_gpt2", {}, {49, 7, 23, 0, 41, 12, 12, 30, 5}); }

const AttributionMetric kGpt2Metric{AttributionMetricKind::logit_diff, 7, 23, 8};

// The bundled en-ko model (ours, post-LN encoder-decoder), a source and its corrupted form (token 2 changed), one
// target.
const std::vector<int> kEnKoSource = {15, 27, 40, 8, 2}, kEnKoCorrupt = {15, 27, 61, 8, 2},
                       kEnKoTarget = {1, 12, 30, 7};
const AttributionMetric kEnKoMetric{AttributionMetricKind::logit_diff, 30, 7, 2};

Stepper en_ko() {
    return run_model(std::string(ATTNLAB_SOURCE_DIR) + "/assets/models/en-ko.safetensors", kEnKoSource, kEnKoTarget);
}

// Every cell of every layer of `piece`, patched with its own values: the logits keep their bits.
void check_self_patches(Stepper& s, PatchPiece piece) {
    INFO(to_string(piece));
    const Tensor logits = *s.output(StepId::head(StepKind::logits, s.config()));
    auto steps = patch_steps(s, piece);
    REQUIRE(steps);
    const std::vector<Tensor> own = clean_pieces(s, *steps);
    for (size_t l = 0; l < steps->size(); ++l) {
        const Tensor& t = own[l];
        const int64_t cells = t.dim(0), per_cell = t.numel() / cells;
        for (int64_t c = 0; c < cells; ++c) {
            INFO("layer " << l << " cell " << c);
            const bool heads = by_head(piece);
            Tensor values(heads ? Shape{t.dim(1), t.dim(2)} : Shape{1, per_cell});
            std::copy_n(t.data.begin() + c * per_cell, per_cell, values.data.begin());
            REQUIRE(s.patch_output({(*steps)[l], heads ? 0 : c, heads ? static_cast<int>(c) : -1, values}));
            CHECK(s.last_computed() > 1);  // the steps after it did re-run
            CHECK(s.output(StepId::head(StepKind::logits, s.config()))->data == logits.data);
            s.undo_patch();
        }
    }
}

// The grid of `piece` by row re-runs and by whole re-runs: the same bits, and some cell moves the metric.
void check_rows_equal_whole(Stepper& corrupted, PatchPiece piece, const std::vector<Tensor>& pieces,
                            const AttributionMetric& metric, double clean_value) {
    INFO(to_string(piece));
    auto rows = patch_grid(corrupted, piece, pieces, metric, clean_value, Stepper::PatchRerun::rows);
    auto whole = patch_grid(corrupted, piece, pieces, metric, clean_value, Stepper::PatchRerun::whole);
    REQUIRE(rows);
    REQUIRE(whole);
    REQUIRE(rows->values.size() == whole->values.size());
    for (size_t k = 0; k < rows->values.size(); ++k) CHECK(same_bits(rows->values[k], whole->values[k]));
    CHECK(std::any_of(rows->values.begin(), rows->values.end(), [&](double v) { return v != rows->corrupt; }));
}

}  // namespace

TEST_CASE("patch grids: exact and gradient estimates match PyTorch within 1e-4", "[patching]") {
    std::ifstream in(kFixtures + "patching.json");
    REQUIRE(in);
    const nlohmann::json cases = nlohmann::json::parse(in).at("cases");
    REQUIRE(cases.size() == 46);
    for (const nlohmann::json& c : cases) {
        INFO(c.at("case").get<std::string>() << " " << c.at("piece").get<std::string>());
        auto metric = AttributionMetric::parse(c.at("metric"), MetricKinds::any);
        REQUIRE(metric);
        auto piece = parse_patch_piece(c.at("piece"));
        REQUIRE(piece);
        Runs r = runs(c, *piece, *metric);
        CHECK(close(r.clean, c.at("clean")));
        auto exact = patch_grid(r.stepper, *piece, r.pieces, *metric, r.clean);
        REQUIRE(exact);
        CHECK(close(exact->corrupt, c.at("corrupt")));
        CHECK(exact->rows == (in_encoder(*piece)                 ? r.stepper.config().n_encoder_layers
                              : r.stepper.config().has_decoder() ? r.stepper.config().n_decoder_layers
                                                                 : r.stepper.config().n_encoder_layers));
        const auto& want = c.at("values");
        REQUIRE(exact->rows == static_cast<int64_t>(want.size()));
        REQUIRE(exact->cols == static_cast<int64_t>(want[0].size()));
        for (int64_t l = 0; l < exact->rows; ++l)
            for (int64_t p = 0; p < exact->cols; ++p) {
                INFO("layer " << l << " cell " << p);
                CHECK(close(exact->at(l, p), want[static_cast<size_t>(l)][static_cast<size_t>(p)]));
            }
        auto estimate = patch_grid_gradient(r.stepper, *piece, r.pieces, *metric, r.clean);
        REQUIRE(estimate);
        const auto& want_g = c.at("gradient");
        for (int64_t l = 0; l < estimate->rows; ++l)
            for (int64_t p = 0; p < estimate->cols; ++p) {
                INFO("gradient: layer " << l << " cell " << p);
                CHECK(close(estimate->at(l, p), want_g[static_cast<size_t>(l)][static_cast<size_t>(p)]));
            }
    }
}

TEST_CASE("patch_output: every piece patched with its own value changes nothing, bit for bit", "[patching]") {
    Stepper s = gpt2();
    for (PatchPiece piece : {PatchPiece::residual, PatchPiece::attn_out, PatchPiece::ffn_out, PatchPiece::heads})
        check_self_patches(s, piece);
    Stepper encoder_decoder = en_ko();
    for (PatchPiece piece : kPatchPieces) check_self_patches(encoder_decoder, piece);
    // patch_grid skips such cells: the same bits without a run.
    auto steps = patch_steps(s, PatchPiece::ffn_out);
    auto grid = patch_grid(s, PatchPiece::ffn_out, clean_pieces(s, *steps), kGpt2Metric, 0.0);
    REQUIRE(grid);
    for (double v : grid->values) CHECK(same_bits(v, grid->corrupt));
}

TEST_CASE("patch grids: the row re-run gives the whole re-run's grid, bit for bit, computing less", "[patching]") {
    for (PatchPiece piece : {PatchPiece::residual, PatchPiece::attn_out, PatchPiece::ffn_out, PatchPiece::heads}) {
        Stepper s = gpt2();
        const std::vector<Tensor> pieces = clean_pieces(s, *patch_steps(s, piece));
        const double clean_value = *metric_value(s, kGpt2Metric);
        REQUIRE(s.set_tgt_ids({49, 7, 11, 0, 41, 12, 12, 30, 5}));
        check_rows_equal_whole(s, piece, pieces, kGpt2Metric, clean_value);
    }
    // An encoder-decoder whose source is corrupted: an encoder row reaches every decoder row through the
    // cross-attention.
    for (PatchPiece piece : kPatchPieces) {
        Stepper s = en_ko();
        const std::vector<Tensor> pieces = clean_pieces(s, *patch_steps(s, piece));
        const double clean_value = *metric_value(s, kEnKoMetric);
        REQUIRE(s.set_src_ids(kEnKoCorrupt));
        check_rows_equal_whole(s, piece, pieces, kEnKoMetric, clean_value);
    }
    // A residual patch at the last position re-runs one row of each step after it.
    Stepper s = gpt2();
    const size_t step = patch_steps(s, PatchPiece::residual)->at(1);
    Tensor row({1, s.config().d_model});
    std::fill(row.data.begin(), row.data.end(), 0.5f);
    REQUIRE(s.patch_output({step, 8, -1, row}, Stepper::PatchRerun::rows));
    const auto logits = s.find(StepId::head(StepKind::logits, s.config()));
    REQUIRE(logits);
    CHECK(s.last_computed_from(*logits) == std::optional<int64_t>(8));
}

TEST_CASE("patch_grid: a progress that says stop ends the grid there, the stepper as it began", "[patching]") {
    Stepper s = gpt2();
    const std::vector<Tensor> pieces = clean_pieces(s, *patch_steps(s, PatchPiece::residual));
    const double clean_value = *metric_value(s, kGpt2Metric);
    REQUIRE(s.set_tgt_ids({49, 7, 11, 0, 41, 12, 12, 30, 5}));
    const Tensor logits = *s.output(StepId::head(StepKind::logits, s.config()));
    int64_t calls = 0;
    auto g = patch_grid(s, PatchPiece::residual, pieces, kGpt2Metric, clean_value, Stepper::PatchRerun::rows,
                        [&](int64_t done, int64_t) {
                            calls = done;
                            return done < 5;
                        });
    REQUIRE_FALSE(g);
    CHECK(g.error().message == kGridStopped);
    CHECK(calls == 5);
    CHECK(s.output(StepId::head(StepKind::logits, s.config()))->data == logits.data);
}

TEST_CASE("patch_output: undo puts back every output and version; a later edit undoes it first", "[patching]") {
    Stepper s = gpt2();
    std::vector<Tensor> values;
    std::vector<uint64_t> versions;
    for (size_t i = 0; i < s.size(); ++i) {
        const TraceEntry* e = s.entry(s.step(i).path);
        values.push_back(e->value);
        versions.push_back(e->version);
    }
    const size_t step = patch_steps(s, PatchPiece::heads)->at(0);
    Tensor head({9, s.config().d_head()});
    std::fill(head.data.begin(), head.data.end(), 1.0f);
    REQUIRE(s.patch_output({step, 0, 2, head}));
    const auto logits = s.find(StepId::head(StepKind::logits, s.config()));
    CHECK(s.output(s.step(*logits).path)->data != values[*logits].data);
    s.undo_patch();
    for (size_t i = 0; i < s.size(); ++i) {
        INFO(s.step(i).path);
        const TraceEntry* e = s.entry(s.step(i).path);
        CHECK(e->value.data == values[i].data);
        CHECK(e->version == versions[i]);
    }
    REQUIRE(s.patch_output({step, 0, 2, head}));
    REQUIRE(s.set_tgt_ids({49, 7, 23, 0, 41, 12, 12, 30, 5}));  // the same ids: only the undo changes the trace
    CHECK(s.output(s.step(*logits).path)->data == values[*logits].data);
}

TEST_CASE("patch_output and the grids: one-line errors", "[patching]") {
    Stepper s = gpt2();
    const size_t resid = patch_steps(s, PatchPiece::residual)->at(1);
    const size_t heads = patch_steps(s, PatchPiece::heads)->at(0);
    Tensor row({1, s.config().d_model});
    auto past = s.patch_output({resid, 9, -1, row});
    REQUIRE_FALSE(past);
    CHECK(past.error().message.find("does not fit") != std::string::npos);
    CHECK_FALSE(s.patch_output({resid, 0, -1, Tensor({1, 3})}));
    CHECK_FALSE(s.patch_output({resid, 0, 0, row}));   // no heads
    CHECK_FALSE(s.patch_output({heads, 0, -1, row}));  // one head at a time
    CHECK_FALSE(s.patch_output({heads, 0, 99, Tensor({9, s.config().d_head()})}));
    const auto mask = s.find(StepId::mask_of(AttentionUse::decoder_self));
    if (mask) CHECK_FALSE(s.patch_output({*mask, 0, -1, Tensor({1, 9})}));
    CHECK(past.error().message.find('\n') == std::string::npos);

    auto bad_piece = parse_patch_piece("mlp");
    REQUIRE_FALSE(bad_piece);
    CHECK(bad_piece.error().message ==
          "unknown piece 'mlp': residual, attn-out, ffn-out, heads, enc-residual, "
          "enc-attn-out, enc-ffn-out, enc-heads, cross-out or cross-heads");
    for (PatchPiece piece : kPatchPieces) CHECK(*parse_patch_piece(to_string(piece)) == piece);
    // A decoder-only model has no encoder nor cross-attention; BERT (encoder-only) has its pieces unprefixed.
    const Stepper bert = run_fixture("hf_bert", {2, 17, 31, 8, 3}, {});
    for (const Stepper* model : std::vector<const Stepper*>{&s, &bert})
        for (PatchPiece piece :
             {PatchPiece::enc_residual, PatchPiece::enc_heads, PatchPiece::cross_out, PatchPiece::cross_heads}) {
            auto missing = patch_steps(*model, piece);
            REQUIRE_FALSE(missing);
            INFO(missing.error().message);
            CHECK(missing.error().message.find(std::string(to_string(piece)) + " patches an encoder-decoder's") == 0);
            CHECK(missing.error().message.find(model == &s ? "decoder-only" : "encoder-only") != std::string::npos);
            CHECK(missing.error().message.find('\n') == std::string::npos);
        }
    CHECK(patch_steps(bert, PatchPiece::heads)->size() == 2);
    auto far = metric_value(s, {AttributionMetricKind::logit, 4, -1, 9});
    REQUIRE_FALSE(far);
    CHECK(far.error().message.find("position 9 is past the end") == 0);
    auto token = metric_value(s, {AttributionMetricKind::logit_diff, 4, 100000, 3});
    REQUIRE_FALSE(token);
    CHECK(token.error().message.find("token id 100000 is not in the vocabulary") == 0);
    std::vector<Tensor> shorter = clean_pieces(s, *patch_steps(s, PatchPiece::residual));
    shorter[0] = Tensor({8, s.config().d_model});
    auto lengths = patch_grid(s, PatchPiece::residual, shorter, kGpt2Metric, 0.0);
    REQUIRE_FALSE(lengths);
    CHECK(lengths.error().message.find("must have the same length") != std::string::npos);
}

TEST_CASE("the prob metric: parsed for patching, refused for attribution; its value and gradient at the logits",
          "[patching]") {
    auto refused = AttributionMetric::parse("prob:7@2");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("prob is not supported yet") != std::string::npos);
    auto prob = AttributionMetric::parse("prob:7@2", MetricKinds::any);
    REQUIRE(prob);
    CHECK(prob->kind == AttributionMetricKind::prob);
    CHECK(prob->to_string() == "prob:7@2");
    CHECK_FALSE(AttributionMetric::parse("prob:7", MetricKinds::any));

    // metric_value: softmax(logits[POS])[A], the same number the loss prob:A@POS takes.
    const Stepper s = gpt2();
    const Tensor& logits = *s.output(StepId::head(StepKind::logits, s.config()));  // (9, 50)
    const int64_t V = logits.dim(1);
    double sum = 0.0;
    for (int64_t v = 0; v < V; ++v) sum += std::exp(static_cast<double>(logits.data[static_cast<size_t>(2 * V + v)]));
    const double want = std::exp(static_cast<double>(logits.data[static_cast<size_t>(2 * V + 7)])) / sum;
    const double got = *metric_value(s, *prob);
    CHECK(std::fabs(got - want) <= 1e-12);
    auto loss = LossSpec::parse("prob:7@2");
    REQUIRE(loss);
    CHECK(loss->to_string() == "prob:7@2");
    auto value = evaluate_loss(*loss, logits, s.inputs().tgt_ids, -1);
    REQUIRE(value);
    CHECK(same_bits(value->value, got));
    // d p_7 / d logits[2]: p_7 (e_7 − p), zero on the other rows; it sums to 0 over the row.
    double row_sum = 0.0;
    for (int64_t k = 0; k < logits.numel(); ++k) {
        const int64_t r = k / V, v = k % V;
        const double d = value->d_logits.data[static_cast<size_t>(k)];
        if (r != 2) {
            CHECK(d == 0.0);
            continue;
        }
        const double p = std::exp(static_cast<double>(logits.data[static_cast<size_t>(k)])) / sum;
        CHECK(std::fabs(d - want * ((v == 7 ? 1.0 : 0.0) - p)) <= 1e-7);
        row_sum += d;
    }
    CHECK(std::fabs(row_sum) <= 1e-6);
    // logit:A@POS: one-hot at (POS, A).
    auto one = evaluate_loss(*LossSpec::parse("logit:7@2"), logits, s.inputs().tgt_ids, -1);
    REQUIRE(one);
    for (int64_t k = 0; k < logits.numel(); ++k)
        CHECK(one->d_logits.data[static_cast<size_t>(k)] == (k == 2 * V + 7 ? 1.0f : 0.0f));
    CHECK(same_bits(one->value, *metric_value(s, {AttributionMetricKind::logit, 7, -1, 2})));
}

TEST_CASE("attribution refuses a prob metric with its one-line reason", "[patching]") {
    const Stepper s = gpt2();
    auto refused = attribute_logits(s, {AttributionMetricKind::prob, 7, -1, 2});
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message == prob_refusal("prob:7@2"));
    CHECK(refused.error().message.find("prob is not supported yet") != std::string::npos);
}
