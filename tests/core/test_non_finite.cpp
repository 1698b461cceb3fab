// NaN and ±∞ in the trace: each computed step counts its non-finite values, the first step
// that holds any is the one reported, the −∞ a mask writes is not counted, and edits that
// make the values finite again clear the flag.
#include "forward/linear_map.h"
#include "ops/activation.h"
#include "ops/elementwise.h"
#include "ops/non_finite.h"
#include "parallel.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace attnlab;
using namespace attnlab::test;

namespace {

constexpr float kHuge = 3e38f;  // finite, but 3e38·x overflows float for |x| > 1.134

std::string first_path(const Stepper& s) {
    const auto i = s.first_non_finite_step();
    return i ? s.step(*i).path : std::string("(none)");
}

int64_t count_if(const Tensor& t, bool (*pred)(float)) {
    int64_t n = 0;
    for (const float x : t.data) n += pred(x) ? 1 : 0;
    return n;
}

bool is_minus_inf(float x) { return std::isinf(x) && x < 0.0f; }
bool is_nan(float x) { return std::isnan(x); }

// Every step before `path` was computed clean.
void require_clean_before(const Stepper& s, const std::string& path) {
    for (size_t i = 0; i < *s.find(path); ++i) {
        INFO(s.step(i).path);
        REQUIRE(s.entry(s.step(i).path)->non_finite == 0);
    }
}

void require_all_clean(const Stepper& s) {
    CHECK_FALSE(s.first_non_finite_step());
    for (size_t i = 0; i < s.cursor(); ++i) {
        INFO(s.step(i).path);
        CHECK(s.entry(s.step(i).path)->non_finite == 0);
    }
}

}  // namespace

TEST_CASE("the −∞ of masked scores is by design and never flagged", "[non_finite]") {
    ForwardInputs in = sample_inputs();
    in.src_ids = {5, 9, 7, 2, 0, 0};  // two <pad>: their keys are masked in every source attention
    Stepper s = make_stepper(small_config(), in);
    s.run_all();
    const TraceEntry* dec = s.entry("decoder.layers.0.self_attn.masked");  // look-ahead: −∞ above the diagonal
    const TraceEntry* cross = s.entry("decoder.layers.1.cross_attn.masked");
    CHECK(count_if(dec->value, is_minus_inf) == 2 * (4 * 3 / 2));  // H · T(T−1)/2
    CHECK(count_if(cross->value, is_minus_inf) == 2 * 4 * 2);      // H · T · (padding keys)
    require_all_clean(s);

    // A query row with every key masked: all −∞ in `.masked`, zero weights, still no flag.
    for (int col = 0; col < 6; ++col) REQUIRE(s.set_mask_cell(AttentionUse::encoder_self, 0, col, false));
    CHECK(s.entry("encoder.layers.0.self_attn.weights")->fully_masked_rows == std::vector<int64_t>{0});
    const Tensor& masked = *s.output("encoder.layers.0.self_attn.masked");  // (H, S, S)
    for (int64_t h = 0; h < masked.dim(0); ++h)
        CHECK((masked.slice(h).row(0).array() == -std::numeric_limits<float>::infinity()).all());
    require_all_clean(s);
}

TEST_CASE("a huge weight in a linear layer flags the step that first overflows", "[non_finite]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    const Tensor logits = *s.output("logits");
    const std::string hidden = "decoder.layers.0.ffn.hidden", weight = "decoder.layers.0.linear1.weight";
    const Tensor x = *s.output(s.step(*s.find(hidden)).inputs.at(0));  // (T, C), what W_1 multiplies
    // The input column with the largest value: W_1[0, k] = ±3e38 makes h[t, 0] = +∞ where |x[t, k]| > 1.134.
    int64_t k = 0, t_max = 0;
    for (int64_t t = 0; t < x.dim(0); ++t)
        for (int64_t c = 0; c < x.dim(1); ++c)
            if (std::abs(x.data[t * x.dim(1) + c]) > std::abs(x.data[t_max * x.dim(1) + k])) t_max = t, k = c;
    const float x_max = x.data[t_max * x.dim(1) + k];
    REQUIRE(std::abs(x_max) > 1.2f);
    int64_t surely = 0, maybe = 0;  // tokens whose product certainly / possibly overflows
    for (int64_t t = 0; t < x.dim(0); ++t) {
        surely += std::abs(x.data[t * x.dim(1) + k]) > 1.2f ? 1 : 0;
        maybe += std::abs(x.data[t * x.dim(1) + k]) > 1.1f ? 1 : 0;
    }
    const float original = s.weights().at(weight).data[static_cast<size_t>(k)];

    REQUIRE(s.set_weight_value(weight, k, std::copysign(kHuge, x_max)));
    CHECK(first_path(s) == hidden);
    const int64_t n = s.entry(hidden)->non_finite;
    CHECK(n >= surely);
    CHECK(n <= maybe);
    require_clean_before(s, hidden);
    CHECK(std::isinf(s.output(hidden)->data[static_cast<size_t>(t_max * s.output(hidden)->dim(1))]));
    // Downstream of it the values are non-finite too, but the first step stays the one reported.
    CHECK(s.entry("decoder.layers.0.ffn.activation")->non_finite > 0);  // ReLU(+∞) = +∞
    CHECK(s.entry("decoder.layers.0.ffn.out")->non_finite > 0);
    CHECK(s.entry("decoder.layers.1.self_attn.weights")->non_finite > 0);
    CHECK(s.entry("logits")->non_finite > 0);

    // Restoring the weight re-runs the same steps and clears every flag.
    REQUIRE(s.set_weight_value(weight, k, original));
    require_all_clean(s);
    CHECK(bit_equal(*s.output("logits"), logits));

    // The flag follows the cursor: not before the step has run, and gone once stepped back.
    s.run_to(*s.find(hidden));
    REQUIRE(s.set_weight_value(weight, k, std::copysign(kHuge, x_max)));
    CHECK_FALSE(s.first_non_finite_step());
    REQUIRE(s.step_forward());
    CHECK(first_path(s) == hidden);
    REQUIRE(s.step_back());
    CHECK_FALSE(s.first_non_finite_step());
}

TEST_CASE("values that overflow downstream of a huge weight are flagged where they appear", "[non_finite]") {
    // b_Q[0] = b_K[0] = 3e38: Q and K are finite, their product QKᵀ is +∞ in every cell of head 0.
    Stepper s = make_stepper(small_config());
    s.run_all();
    const std::string attn = "decoder.layers.0.self_attn";
    const int64_t T = 4, C = small_config().d_model;
    REQUIRE(s.set_weight_value(attn + ".in_proj_bias", 0, kHuge));
    REQUIRE(s.set_weight_value(attn + ".in_proj_bias", C, kHuge));
    CHECK(s.entry(attn + ".q")->non_finite == 0);
    CHECK(s.entry(attn + ".k")->non_finite == 0);
    CHECK(first_path(s) == attn + ".scores");
    CHECK(s.entry(attn + ".scores")->non_finite == T * T);
    CHECK(s.entry(attn + ".scaled")->non_finite == T * T);
    // `.masked`: +∞ counts in the T(T+1)/2 allowed cells; the −∞ of the look-ahead mask does not.
    CHECK(s.entry(attn + ".masked")->non_finite == T * (T + 1) / 2);
    CHECK(s.entry(attn + ".weights")->non_finite > 0);  // softmax of +∞: NaN
    CHECK(s.entry("logits")->non_finite > 0);

    // b_K[0] = −3e38: every score of head 0 is −∞, in allowed cells too, so `.masked` counts them.
    // Softmax takes such rows as fully masked (zero weights), so the values downstream are finite.
    REQUIRE(s.set_weight_value(attn + ".in_proj_bias", C, -kHuge));
    CHECK(first_path(s) == attn + ".scores");
    CHECK(s.entry(attn + ".masked")->non_finite == T * (T + 1) / 2);
    CHECK(s.entry(attn + ".weights")->non_finite == 0);
    CHECK(s.entry(attn + ".weights")->fully_masked_rows.size() == static_cast<size_t>(T));
    CHECK(s.entry("logits")->non_finite == 0);
}

TEST_CASE("a NaN weight constructed directly flags the step that reads it", "[non_finite]") {
    const ModelConfig c = small_config();
    const float nan = std::numeric_limits<float>::quiet_NaN();

    SECTION("a linear weight: one NaN per token row") {
        Weights w = random_weights(c, 7);
        w.set_value("encoder.layers.1.linear2.weight", 5, nan);  // W_2[0, 5]: out[t, 0] = Σ_f a[t, f]·W_2[0, f]
        auto s = Stepper::create(c, w, sample_inputs());
        REQUIRE(s);
        s->run_all();
        CHECK(first_path(*s) == "encoder.layers.1.ffn.out");
        CHECK(s->entry("encoder.layers.1.ffn.out")->non_finite == 5);  // S = 5 (NaN·0 is NaN too)
        require_clean_before(*s, "encoder.layers.1.ffn.out");
        CHECK(s->entry("encoder.output")->non_finite > 0);
    }

    SECTION("a query projection: NaN counts in `.masked`, −∞ of the mask does not") {
        Weights w = random_weights(c, 7);
        w.set_value("decoder.layers.1.self_attn.in_proj_weight", 0, nan);  // Q[head 0][:, 0]
        auto s = Stepper::create(c, w, sample_inputs());
        REQUIRE(s);
        s->run_all();
        const std::string attn = "decoder.layers.1.self_attn";
        const int64_t T = 4;
        CHECK(first_path(*s) == attn + ".q");
        CHECK(s->entry(attn + ".q")->non_finite == T);
        CHECK(s->entry(attn + ".scores")->non_finite == T * T);
        const TraceEntry* masked = s->entry(attn + ".masked");
        CHECK(masked->non_finite == T * (T + 1) / 2);
        CHECK(masked->non_finite == count_if(masked->value, is_nan));
    }

    SECTION("an embedding row: the flag comes and goes with the token that reads it") {
        Weights w = random_weights(c, 7);
        w.set_value("src_embed.weight", 9 * c.d_model + 3, nan);  // E_src[9, 3]
        auto s = Stepper::create(c, w, sample_inputs());          // source 5 9 7 12 2
        REQUIRE(s);
        s->run_all();
        CHECK(first_path(*s) == "src.embed");
        CHECK(s->entry("src.embed")->non_finite == 1);
        CHECK(s->entry("logits")->non_finite > 0);
        // An edit that drops the token makes every value finite again: the incremental re-run clears it.
        REQUIRE(s->set_src_ids({5, 7, 12, 2}));
        require_all_clean(*s);
        REQUIRE(s->set_src_ids({9, 9, 2}));
        CHECK(first_path(*s) == "src.embed");
        CHECK(s->entry("src.embed")->non_finite == 2);
    }
}

TEST_CASE("the counts split between threads are those of a plain loop", "[non_finite]") {
    // (3, 640, 640): past the size from which the count is split between the threads.
    const size_t heads = 3, cells = 640 * 640;
    std::vector<float> mask(cells, 1.0f), x(heads * cells, 0.5f);
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    for (size_t c = 0; c < cells; c += 7) mask[c] = 0.0f;
    // −∞ in forbidden cells (not counted), and NaN, +∞ and −∞ in both kinds of cell, at odd strides.
    for (size_t i = 0; i < x.size(); i += 7) x[i] = -inf;
    for (size_t i = 3; i < x.size(); i += 1013) x[i] = nan;
    for (size_t i = 5; i < x.size(); i += 2027) x[i] = inf;
    for (size_t i = 1; i < x.size(); i += 4099) x[i] = -inf;
    int64_t all = 0, unmasked = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        if (std::isfinite(x[i])) continue;
        ++all;
        if (!(is_minus_inf(x[i]) && mask[i % cells] == 0.0f)) ++unmasked;
    }
    REQUIRE(unmasked > 0);
    REQUIRE(all > unmasked);
    const int threads_before = thread_count();
    for (int threads : {1, 2}) {
        set_thread_count(threads);
        CHECK(count_non_finite(x.data(), x.size()) == all);
        CHECK(count_non_finite_unmasked(x.data(), mask.data(), heads, cells) == unmasked);
    }
    set_thread_count(threads_before);
}

TEST_CASE("a split linear map counts the NaN and ±∞ of each piece it writes, as a count of its output would",
          "[non_finite]") {
    // (64, 256)·(256, 600)ᵀ: 9.8M multiply-adds, split into pieces of whole panels (the last one partial), in both
    // stored layouts; ±3e38 weights overflow some outputs to ±∞, a NaN weight makes others NaN.
    for (const WeightLayout layout : {WeightLayout::out_in, WeightLayout::in_out}) {
        const LinearParams map{"w", "b", false, layout, 256, 600, 0, 600};
        Weights weights;
        Tensor w = random_tensor(map.weight_shape(), 21);
        for (int64_t k = 0; k < 256; ++k) {
            const int64_t huge = layout == WeightLayout::out_in ? 7 * 256 + k : k * 600 + 7;  // output 7
            w.data[static_cast<size_t>(huge)] = k % 2 ? kHuge : -kHuge;
        }
        const int64_t nan_at = layout == WeightLayout::out_in ? 599 * 256 + 3 : 3 * 600 + 599;  // output 599
        w.data[static_cast<size_t>(nan_at)] = std::numeric_limits<float>::quiet_NaN();
        weights.set("w", std::move(w));
        weights.set("b", random_tensor({600}, 22));
        const Tensor x = random_tensor({64, 256}, 23);
        const int threads_before = thread_count();
        for (const int threads : {1, 2, 3}) {
            set_thread_count(threads);
            const CountedOutput y = linear_map_forward_counted(weights, map, x);
            INFO("threads " << threads);
            CHECK(bit_equal(y.value, linear_map_forward(weights, map, x)));
            const int64_t plain = count_if(y.value, [](float v) { return !std::isfinite(v); });
            CHECK(plain >= 64 * 2);  // every row's output 599, and most rows' output 7
            CHECK(y.non_finite == plain);
        }
        set_thread_count(threads_before);
    }
}

namespace {

// Step i's non-finite entries, counted here from its output without the stepper's rules: a −∞ in a cell its
// mask forbids (a masked stage's second input) is the mask's own.
int64_t plain_count(const Stepper& s, size_t i) {
    const Step& step = s.step(i);
    const Tensor& value = *s.output(step.path);
    const Tensor* mask = step.record.id.kind == StepKind::attention && step.record.id.stage == AttentionStage::masked
                             ? s.output(step.inputs.at(1))
                             : nullptr;
    int64_t n = 0;
    for (size_t k = 0; k < value.data.size(); ++k) {
        const float x = value.data[k];
        if (std::isfinite(x)) continue;
        if (mask && is_minus_inf(x) && mask->data[k % mask->data.size()] == 0.0f) continue;
        ++n;
    }
    return n;
}

void require_counts_are_plain(const Stepper& s) {
    for (size_t i = 0; i < s.cursor(); ++i) {
        INFO(s.step(i).path);
        REQUIRE(s.entry(s.step(i).path)->non_finite == plain_count(s, i));
    }
}

}  // namespace

TEST_CASE("stages not counted because their inputs are finite hold what a count would find", "[non_finite]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    require_counts_are_plain(s);
    // W_Q of the decoder's second self-attention ±3e38: its QKᵀ overflows, and ÷√D, the mask and softmax are
    // counted again because their inputs are not finite.
    const std::string q_weight = s.step(*s.find("decoder.layers.1.self_attn.q")).params.front();
    for (int64_t k = 0; k < 16; ++k) REQUIRE(s.set_weight_value(q_weight, k, k % 2 ? kHuge : -kHuge));
    CHECK(s.entry("decoder.layers.1.self_attn.scores")->non_finite > 0);
    CHECK(s.entry("decoder.layers.1.self_attn.scaled")->non_finite > 0);
    require_counts_are_plain(s);
    REQUIRE(s.set_tgt_ids({1, 6, 11, 9, 3}));
    require_counts_are_plain(s);
}

TEST_CASE("a gated FFN's stages count what a plain count finds, the activation only when its input is not finite",
          "[non_finite]") {
    ModelConfig c = small_config();  // a llama: decoder-only, RMSNorm, rotary, SwiGLU
    c.family = Family::llama;
    c.arch = Arch::decoder_only;
    c.n_encoder_layers = 0;
    c.positional = Positional::rotary;
    c.gated_ffn = true;
    c.activation = Activation::silu;
    c.norm = NormKind::rms_norm;
    Stepper s = make_stepper(c);
    s.run_all();
    require_counts_are_plain(s);
    // W_gate ±3e38: the gate overflows to ±∞, silu turns −∞ into NaN, and the product and the residual add follow.
    const std::string gate = "decoder.layers.0.ffn.gate";
    const std::string gate_weight = s.step(*s.find(gate)).params.front();
    for (int64_t k = 0; k < 16; ++k) REQUIRE(s.set_weight_value(gate_weight, k, k % 2 ? kHuge : -kHuge));
    CHECK(s.entry(gate)->non_finite > 0);
    CHECK(s.entry("decoder.layers.0.ffn.activation")->non_finite > 0);
    CHECK(s.entry("decoder.layers.0.ffn.gated")->non_finite > 0);
    require_counts_are_plain(s);
}

TEST_CASE("every activation of a finite value is finite, down to ±FLT_MAX", "[non_finite]") {
    // The stepper does not count an activation's output when its input is finite (finite_from_finite): exp, erf,
    // tanh and x³ overflow or saturate here, and the results must not become ±∞ or NaN.
    const float max = std::numeric_limits<float>::max();
    const std::vector<float> extremes = {0.0f,  -0.0f,  1e-40f, -1e-40f, 1.0f, -1.0f, 88.0f, -88.0f,
                                         89.0f, -89.0f, 100.0f, -100.0f, 1e4f, -1e4f, 1e13f, -1e13f,
                                         1e20f, -1e20f, 1e30f,  -1e30f,  max,  -max,  3e38f, -3e38f};
    Tensor x({3, 40});  // every extreme at several offsets in a row, so vector and scalar tails both meet them
    for (size_t i = 0; i < x.data.size(); ++i) x.data[i] = extremes[i % extremes.size()];
    for (const Activation kind : {Activation::relu, Activation::gelu, Activation::gelu_tanh, Activation::silu}) {
        const Tensor y = activation_forward(x, kind);
        INFO(to_string(kind));
        CHECK(count_if(y, [](float v) { return !std::isfinite(v); }) == 0);
    }
}

TEST_CASE("the residual add and the gated product count the NaN and ±∞ they write, on any number of threads",
          "[non_finite]") {
    // (600, 512): past the size from which the entries are split between the threads.
    Tensor a = random_tensor({600, 512}, 31), b = random_tensor({600, 512}, 32);
    for (size_t i = 0; i < a.data.size(); i += 997) a.data[i] = b.data[i] = kHuge;  // 6e38 and 9e76: +∞
    for (size_t i = 5; i < a.data.size(); i += 4001) a.data[i] = std::numeric_limits<float>::quiet_NaN();
    const int threads_before = thread_count();
    for (const int threads : {1, 2, 3}) {
        set_thread_count(threads);
        INFO("threads " << threads);
        int64_t sum_count = -1, product_count = -1;
        const Tensor sum = elementwise_sum(a, b, sum_count);
        Tensor product = a;
        multiply_in_place(product, b, product_count);
        Tensor plain_sum = a, plain_product = a;
        for (size_t i = 0; i < a.data.size(); ++i) {
            plain_sum.data[i] = a.data[i] + b.data[i];
            plain_product.data[i] = a.data[i] * b.data[i];
        }
        CHECK(bit_equal(sum, plain_sum));
        CHECK(bit_equal(product, plain_product));
        const int64_t plain = count_if(plain_sum, [](float v) { return !std::isfinite(v); });
        CHECK(plain > 300);
        CHECK(sum_count == plain);
        CHECK(product_count == count_if(plain_product, [](float v) { return !std::isfinite(v); }));
    }
    set_thread_count(threads_before);
}
