// The numbers an explanation shows are the trace's: each is recomputed here from the trace's
// tensors (or from the formula itself) and compared at the precision it is shown with.
#include "explain_support.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace attnlab;
using namespace attnlab::test;

namespace {

Explanation explained(const Stepper& s, const std::string& path, const ExplainFocus& focus = {},
                      const ExplainLabels& labels = {}) {
    INFO(path);
    auto e = explain_step(bundled_table(Language::english), s, *s.find(path), focus, labels);
    REQUIRE(e);
    REQUIRE(e->has_numbers);
    return *e;
}

Explanation explained(const Stepper& s, const StepId& id, const ExplainFocus& focus = {},
                      Language language = Language::english) {
    const auto i = s.find(id);
    REQUIRE(i);
    INFO(s.step(*i).path);
    auto e = explain_step(bundled_table(language), s, *i, focus);
    REQUIRE(e);
    REQUIRE(e->has_numbers);
    return *e;
}

// Checks that values[key] shows `expected` and that the numbers line carries it.
void check_value(const Explanation& e, const std::string& key, double expected) {
    INFO(e.kind << " {" << key << "} in: " << e.numbers);
    REQUIRE(e.values.count(key));
    CHECK(shows(e.values.at(key), expected));
}

double mean_of(const std::vector<double>& v) {
    return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

std::vector<double> row_of(const Tensor& t, int64_t r) {  // row r of an (N, X) tensor
    std::vector<double> v;
    for (int64_t j = 0; j < t.dim(1); ++j) v.push_back(t.data[static_cast<size_t>(r * t.dim(1) + j)]);
    return v;
}

std::vector<double> head_row(const Tensor& t, int64_t h, int64_t r) {  // row r of head h of an (H, N, X) tensor
    std::vector<double> v;
    const int64_t n = t.dim(1), x = t.dim(2);
    for (int64_t j = 0; j < x; ++j) v.push_back(t.data[static_cast<size_t>((h * n + r) * x + j)]);
    return v;
}

double std_of(const std::vector<double>& v, double eps = 0) {
    const double m = mean_of(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size()) + eps);
}

double norm_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x * x;
    return std::sqrt(s);
}

ForwardInputs padded_inputs() {
    ForwardInputs in;
    in.src_ids = {5, 9, 7, 12, 2, 0, 0};  // two <pad> at the end of the source
    in.tgt_ids = {1, 6, 11, 8, 0};        // one in the target
    return in;
}

}  // namespace

TEST_CASE("attention numbers: q·k, its scale, the masked cells, the strongest weight, the context", "[explain]") {
    Stepper s = make_stepper(small_config(), padded_inputs());
    s.run_all();
    const std::string a = "decoder.layers.1.self_attn";
    const Tensor &scores = *s.output(a + ".scores"), &scaled = *s.output(a + ".scaled");
    const Tensor &masked = *s.output(a + ".masked"), &weights = *s.output(a + ".weights");
    const Tensor& mask = *s.output("masks.decoder_self");  // (T, T)
    const int h = 1, r = 3, c = 2;

    const Explanation sc = explained(s, a + ".scores", {h, r, c});
    const auto score_row = head_row(scores, h, r);
    check_value(sc, "score", score_row[c]);
    check_value(sc, "row_max", *std::max_element(score_row.begin(), score_row.end()));

    const Explanation sd = explained(s, a + ".scaled", {h, r, c});
    check_value(sd, "score", head_row(scores, h, r)[c]);
    check_value(sd, "scaled", head_row(scaled, h, r)[c]);
    check_value(sd, "scaled", head_row(scores, h, r)[c] / std::sqrt(8.0));  // D = 8
    check_value(sd, "std_before", std_of(head_row(scores, h, r)));
    check_value(sd, "std_after", std_of(head_row(scaled, h, r)));
    CHECK_THAT(sd.numbers,
               Catch::Contains("q_3·k_2 / √8 = " + sd.values.at("score") + " / 2.828 = " + sd.values.at("scaled")));

    // Without a focused column, the strongest key the mask allows.
    const Explanation auto_col = explained(s, a + ".scaled", {h, r, -1});
    int64_t best = -1;
    for (int64_t j = 0; j < mask.dim(1); ++j)
        if (mask.data[static_cast<size_t>(r * mask.dim(1) + j)] != 0.0f &&
            (best < 0 || head_row(scaled, h, r)[j] > head_row(scaled, h, r)[best]))
            best = j;
    CHECK(auto_col.values.at("col") == std::to_string(best));

    const Explanation m = explained(s, a + ".masked", {h, r, -1});
    const auto mask_row = row_of(mask, r);
    CHECK(m.values.at("row_blocked") == std::to_string(std::count(mask_row.begin(), mask_row.end(), 0.0)));
    CHECK(m.values.at("blocked") == std::to_string(std::count(mask.data.begin(), mask.data.end(), 0.0f)));
    CHECK(m.values.at("row_blocked") == "1");  // row 3 of 5: key 4 is both the future and padding
    int64_t infs = 0;
    for (double x : head_row(masked, h, r)) infs += std::isinf(x) ? 1 : 0;
    CHECK(m.values.at("row_blocked") == std::to_string(infs));

    const Explanation w = explained(s, a + ".weights", {h, r, -1});
    const auto wr = head_row(weights, h, r);
    const auto top = std::max_element(wr.begin(), wr.end()) - wr.begin();
    check_value(w, "w_max", wr[static_cast<size_t>(top)]);
    check_value(w, "row_sum", 1.0);
    CHECK(w.values.at("max_key") == "#" + std::to_string(padded_inputs().tgt_ids[static_cast<size_t>(top)]));

    const Explanation ctx = explained(s, a + ".context", {h, r, -1});
    check_value(ctx, "norm", norm_of(head_row(*s.output(a + ".context"), h, r)));
    check_value(ctx, "w_max", wr[static_cast<size_t>(top)]);
}

TEST_CASE("a switched-off head and a fully masked row are explained, not broken", "[explain]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    const std::string a = "encoder.layers.0.self_attn";
    REQUIRE(s.set_head_ablated(AttentionSite{AttentionUse::encoder_self, 0}, 1, true));
    for (int j = 0; j < 5; ++j) REQUIRE(s.set_mask_cell(AttentionUse::encoder_self, 2, j, false));
    const Explanation ctx = explained(s, a + ".context", {1, 2, -1});
    CHECK_THAT(ctx.numbers, Catch::Contains("switched off"));
    check_value(ctx, "norm", 0.0);
    const Explanation on = explained(s, a + ".context", {0, 0, -1});
    CHECK_THAT(on.numbers, !Catch::Contains("switched off"));
    const Explanation w = explained(s, a + ".weights", {0, 2, -1});
    check_value(w, "w_max", 0.0);
    check_value(w, "row_sum", 0.0);
    const Explanation m = explained(s, a + ".masked", {0, 2, -1});
    CHECK(m.values.at("row_blocked") == "5");
}

TEST_CASE("embedding, position and mask numbers", "[explain]") {
    ModelConfig c = small_config();
    Stepper s = make_stepper(c, padded_inputs());
    s.run_all();
    const ExplainLabels labels{{"a", "b", "c", "d", "<eos>", "<pad>", "<pad>"}, {}, nullptr};

    const Explanation pe = explained(s, "src.pos", {0, 3, 5});  // dimension 5 is the cosine of pair (4, 5)
    const double angle = 3.0 / std::pow(10000.0, 4.0 / 16.0);
    check_value(pe, "angle", angle);
    check_value(pe, "sin", std::sin(angle));
    check_value(pe, "cos", std::cos(angle));
    check_value(pe, "sin", row_of(*s.output("src.pos"), 3)[4]);
    CHECK(pe.values.at("two_i") == "4");

    const Explanation emb = explained(s, "src.embed", {0, 2, -1}, labels);
    CHECK(emb.values.at("id") == "7");
    CHECK(emb.values.at("token") == "c");
    check_value(emb, "norm", norm_of(row_of(*s.output("src.embed"), 2)));
    CHECK_THAT(emb.numbers, Catch::Contains("E_src[7]·4.000") && Catch::Contains("“c”"));

    const Explanation sum = explained(s, "src.input", {0, 1, 3});
    check_value(sum, "emb", row_of(*s.output("src.embed"), 1)[3]);
    check_value(sum, "pe", row_of(*s.output("src.pos"), 1)[3]);
    check_value(sum, "sum", row_of(*s.output("src.input"), 1)[3]);

    const Explanation pad = explained(s, "masks.src_padding");
    CHECK(pad.values.at("n_pad") == "2");
    CHECK(pad.values.at("keep") == "1 1 1 1 1 0 0");
    const Explanation look = explained(s, "masks.look_ahead");
    CHECK(look.values.at("blocked") == "10");  // T(T−1)/2 with T = 5
    const Explanation cross = explained(s, "masks.cross", {0, 0, -1});
    CHECK(cross.values.at("blocked") == "10");  // 2 padded source columns × 5 target rows
    CHECK(cross.values.at("row_allowed") == "5");
    CHECK(cross.values.at("pct") == "28.6");
}

TEST_CASE("LayerNorm, residual, FFN and output numbers", "[explain]") {
    ModelConfig c = small_config();
    Stepper s = make_stepper(c);
    s.run_all();
    const std::string layer = "encoder.layers.1";
    const int r = 2;

    const Explanation ln = explained(s, layer + ".norm1", {0, r, -1});
    const auto x = row_of(*s.output(layer + ".residual1"), r);
    check_value(ln, "mean", mean_of(x));
    check_value(ln, "std", std_of(x, c.layer_norm_eps));
    check_value(ln, "out_std", std_of(row_of(*s.output(layer + ".norm1"), r)));

    const Explanation res = explained(s, layer + ".residual2", {0, r, -1});
    check_value(res, "x_norm", norm_of(row_of(*s.output(layer + ".norm1"), r)));
    check_value(res, "s_norm", norm_of(row_of(*s.output(layer + ".ffn.out"), r)));
    check_value(res, "sum_norm", norm_of(row_of(*s.output(layer + ".residual2"), r)));

    const Tensor& a = *s.output(layer + ".ffn.activation");
    const Explanation relu = explained(s, layer + ".ffn.activation", {0, r, -1});
    const auto zeros = std::count(a.data.begin(), a.data.end(), 0.0f);
    CHECK(relu.values.at("zeros") == std::to_string(zeros));
    CHECK(shows(relu.values.at("zero_pct"), 100.0 * static_cast<double>(zeros) / static_cast<double>(a.numel())));
    const auto h = row_of(*s.output(layer + ".ffn.hidden"), r);
    check_value(relu, "h_min", *std::min_element(h.begin(), h.end()));
    check_value(relu, "a_min", 0.0);
    check_value(relu, "h_max", *std::max_element(h.begin(), h.end()));
    check_value(relu, "a_max", *std::max_element(h.begin(), h.end()));

    const Tensor& p = *s.output("probs");
    const auto last = row_of(p, p.dim(0) - 1);
    const Explanation probs = explained(s, "probs");  // the last row: the next token's distribution
    auto sorted = last;
    std::sort(sorted.rbegin(), sorted.rend());
    check_value(probs, "top_p", sorted[0]);
    check_value(probs, "second_p", sorted[1]);
    check_value(probs, "sum", 1.0);
    const auto top_id = std::max_element(last.begin(), last.end()) - last.begin();
    CHECK(probs.values.at("top_token") == "#" + std::to_string(top_id));
    const Explanation logits = explained(s, "logits");
    check_value(logits, "mean", mean_of(row_of(*s.output("logits"), p.dim(0) - 1)));
}

TEST_CASE("the focus falls back to head 0 and the last row when out of range", "[explain]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    const Explanation e = explained(s, "decoder.layers.0.cross_attn.weights", {7, 99, 99});
    CHECK(e.values.at("head") == "0");
    CHECK(e.values.at("row") == "3");  // T = 4
    const Explanation k = explained(s, "decoder.layers.0.cross_attn.k", {0, -1, -1});
    CHECK(k.values.at("row") == "4");  // keys come from the source: S = 5
}

TEST_CASE("BERT's numbers: token types, the embedding LayerNorm, the MLM head, masked-token probabilities",
          "[explain]") {
    const std::vector<FamilyModel> models = hugging_face_models();
    const FamilyModel& bert = models.at(1);
    REQUIRE(bert.name == "bert gelu");
    Stepper s = bert.stepper();
    s.run_all();
    const ModelConfig& c = s.config();
    auto id = [](StepKind kind) { return StepId::of(kind, Stack::encoder); };
    auto out = [&](const StepId& i) -> const Tensor& { return *s.output(i); };
    const int r = 3, dim = 5;

    const Explanation type = explained(s, id(StepKind::token_type), {0, r, -1});
    CHECK(type.kind == "token_type");
    CHECK(type.values.at("type") == "1");  // src_token_types = {0, 0, 0, 1, 1}
    check_value(type, "norm", norm_of(row_of(out(id(StepKind::token_type)), r)));
    CHECK(type.values.at("n_type0") == "4");  // positions 0-2, and 5 (no type given: 0)
    CHECK(explained(s, id(StepKind::token_type), {0, 5, -1}).values.at("type") == "0");
    CHECK_THAT(type.numbers, Catch::Contains("E_type[1]"));

    const Explanation sum = explained(s, id(StepKind::embedding_sum), {0, r, dim});
    CHECK(sum.kind == "input_token_type");
    check_value(sum, "emb", row_of(out(id(StepKind::token_embedding)), r)[dim]);
    check_value(sum, "pe", row_of(out(id(StepKind::position)), r)[dim]);
    check_value(sum, "type_value", row_of(out(id(StepKind::token_type)), r)[dim]);
    check_value(sum, "sum", row_of(out(id(StepKind::embedding_sum)), r)[dim]);

    const Explanation norm = explained(s, id(StepKind::embedding_norm), {0, r, -1});
    CHECK(norm.kind == "embed_norm");
    const auto x = row_of(out(id(StepKind::embedding_sum)), r);
    check_value(norm, "mean", mean_of(x));
    check_value(norm, "std", std_of(x, c.layer_norm_eps));
    check_value(norm, "out_std", std_of(row_of(out(id(StepKind::embedding_norm)), r)));

    auto head = [&](StepKind kind) { return StepId::head(kind, c); };
    const Explanation transform = explained(s, head(StepKind::head_transform), {0, r, -1});
    check_value(transform, "in_norm", norm_of(row_of(out(StepId::of(StepKind::stack_output, Stack::encoder)), r)));
    check_value(transform, "norm", norm_of(row_of(out(head(StepKind::head_transform)), r)));
    const Explanation act = explained(s, head(StepKind::head_activation), {0, r, -1});
    CHECK(act.kind == "mlm_head.gelu");
    const auto t = row_of(out(head(StepKind::head_transform)), r);
    check_value(act, "h_min", *std::min_element(t.begin(), t.end()));
    check_value(act, "h_max", *std::max_element(t.begin(), t.end()));
    const Explanation ln = explained(s, head(StepKind::head_norm), {0, r, -1});
    CHECK(ln.kind == "mlm_head.norm");
    check_value(ln, "mean", mean_of(row_of(out(head(StepKind::head_activation)), r)));

    const Explanation p = explained(s, head(StepKind::probs), {0, r, -1});
    CHECK(p.kind == "probs_masked");
    auto probs = row_of(out(head(StepKind::probs)), r);
    check_value(p, "own_p", probs[static_cast<size_t>(bert.inputs.src_ids[r])]);  // the token at position 3
    std::sort(probs.rbegin(), probs.rend());
    check_value(p, "top_p", probs[0]);
    check_value(p, "second_p", probs[1]);
    check_value(p, "sum", 1.0);
    const Explanation ko = explained(s, head(StepKind::probs), {0, r, -1}, Language::korean);
    CHECK_THAT(ko.what, Catch::Contains("그 자리"));
    CHECK_THAT(p.why, Catch::Contains("masked language model") && !Catch::Contains("Greedy"));

    // Without the MLM head the encoder's output is the model's output.
    REQUIRE(models.at(5).name == "bert without its head");
    Stepper bare = models.at(5).stepper();
    bare.run_all();
    CHECK_THAT(explained(bare, StepId::of(StepKind::stack_output, Stack::encoder)).why,
               Catch::Contains("no output head"));
}

TEST_CASE("GPT-2's numbers: Conv1D formulas, target rows and keys", "[explain]") {
    const FamilyModel gpt2 = hugging_face_models().at(0);
    Stepper s = gpt2.stepper();
    s.run_all();
    const AttentionSite site{AttentionUse::decoder_self, 1};
    const Explanation q = explained(s, StepId::attention_at(site, AttentionStage::q));
    CHECK(q.formula == "Q = x·W_Q + b_Q, split into H heads of D = C/H");  // (in, out): no transpose
    CHECK(explained(s, StepId::head(StepKind::logits, s.config())).formula == "logits = x·Eᵀ  (tied to the embedding)");
    const Explanation ctx = explained(s, StepId::attention_at(site, AttentionStage::context), {2, 3, -1});
    const auto w = head_row(*s.output(StepId::attention_at(site, AttentionStage::weights)), 2, 3);
    const auto top = std::max_element(w.begin(), w.end()) - w.begin();
    CHECK(ctx.values.at("token") == "#" + std::to_string(gpt2.inputs.tgt_ids[3]));
    CHECK(ctx.values.at("max_key") == "#" + std::to_string(gpt2.inputs.tgt_ids[static_cast<size_t>(top)]));
    check_value(ctx, "w_max", w[static_cast<size_t>(top)]);
    const Explanation p = explained(s, StepId::head(StepKind::probs, s.config()));
    CHECK(p.kind == "probs");  // the next token
    CHECK(p.values.at("row") == "4");
}

TEST_CASE("Marian's numbers: a sine and its cosine half a width apart, and a target without padding", "[explain]") {
    const std::vector<FamilyModel> models = hugging_face_models();
    const auto found = std::find_if(models.begin(), models.end(), [](const FamilyModel& m) { return m.name == "marian"; });
    REQUIRE(found != models.end());
    const FamilyModel& marian = *found;
    Stepper s = marian.stepper();
    s.run_all();
    const int64_t C = s.config().d_model;  // 16: sines in columns 0..7, cosines in 8..15
    const StepId pos = StepId::of(StepKind::position, Stack::encoder);
    const Tensor& pe = *s.output(pos);                   // (S, C)
    for (const int64_t dim : {int64_t{2}, C / 2 + 2}) {  // either column of pair 2 explains pair 2
        const Explanation e = explained(s, pos, {0, 3, static_cast<int>(dim)});
        CHECK(e.kind == "pos_sinusoidal_halves");
        CHECK(e.values.at("sin_col") == "2");
        CHECK(e.values.at("cos_col") == std::to_string(C / 2 + 2));
        CHECK(e.values.at("two_i") == "4");
        check_value(e, "sin", pe.row(3)(2));
        check_value(e, "cos", pe.row(3)(C / 2 + 2));
        check_value(e, "angle", 3.0 / std::pow(10000.0, 4.0 / static_cast<double>(C)));
    }
    const Explanation keep = explained(s, StepId::of(StepKind::padding_mask, Stack::decoder), {0, -1, -1});
    CHECK(keep.kind == "mask.tgt_padding_start");
    CHECK(keep.values.at("n") == "5");
    CHECK(keep.values.at("keep") == "1 1 1 1 1");
}
