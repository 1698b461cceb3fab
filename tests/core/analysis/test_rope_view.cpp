// The RoPE view's numbers on the Hugging Face fixtures (tests/golden/fixtures): the angle table, the
// frequencies before and after llama3 and linear scaling, one query's and key's pairs against the trace's
// q_rot and k_rot, the score curve against the trace's scaled scores and its closed form, and the shift check.
#include "../test_support.h"
#include "analysis/rope_view.h"
#include "hf/open_model.h"
#include "ops/rotary.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";
const std::vector<int> kPrompt = {1, 14, 9, 17, 6, 3, 22, 8, 30, 12, 5, 7};  // T = 12, ids of a 50-token vocabulary

LoadedModel open_fixture(const std::string& name) {
    auto loaded = open_model(kFixtures + name);
    if (!loaded) FAIL(loaded.error().message);
    return std::move(*loaded);
}

Stepper run_prompt(const Model& model) {
    ForwardInputs in;
    in.tgt_ids = kPrompt;
    auto s = Stepper::create(model.config, model.weights, in);
    if (!s) FAIL(s.error().message);
    s->run_all();
    return std::move(*s);
}

// Row r of head h of an (H, T, D) output.
const float* row_of(const Tensor& x, int h, int r) { return x.data.data() + (h * x.dim(1) + r) * x.dim(2); }

// score(δ) = Σ_i [(q_a·k_a + q_b·k_b)·cos(δθ_i) + (q_a·k_b − q_b·k_a)·sin(δθ_i)] / √D, in double.
double closed_form_score(const RopePairs& p, const std::vector<float>& theta, int delta) {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < p.q.rows(); ++i) {
        const double qa = p.q(i, 0), qb = p.q(i, 1), ka = p.k(i, 0), kb = p.k(i, 1);
        const double angle = static_cast<double>(delta) * theta[static_cast<size_t>(i)];
        sum += (qa * ka + qb * kb) * std::cos(angle) + (qa * kb - qb * ka) * std::sin(angle);
    }
    return sum / std::sqrt(2.0 * static_cast<double>(p.q.rows()));
}

}  // namespace

TEST_CASE("the angle table is p·θ_i wrapped into 0 ≤ a < 2π, with its cosine, over at least 32 positions", "[rope]") {
    RopeConfig rope;  // theta 10000, D 8: θ = 1, 0.1, 0.01, 0.001
    const std::vector<float> theta = rope_inverse_frequencies(rope, 8);
    const RopeAngleTable t = rope_angle_table(theta, rope_table_positions(12));
    REQUIRE(t.angle.rows() == 32);
    REQUIRE(t.angle.cols() == 4);
    const double two_pi = 2.0 * std::numbers::pi;
    CHECK(t.angle(0, 0) == 0.0f);
    CHECK(t.angle(3, 0) == Approx(3.0).margin(1e-6));
    CHECK(t.angle(7, 0) == Approx(7.0 - two_pi).margin(1e-6));        // past one full turn
    CHECK(t.angle(31, 0) == Approx(31.0 - 4 * two_pi).margin(1e-5));  // four turns
    CHECK(t.angle(31, 1) == Approx(3.1).margin(1e-6));
    CHECK(t.angle(31, 3) == Approx(0.031).margin(1e-7));
    for (Eigen::Index p = 0; p < t.angle.rows(); ++p)
        for (Eigen::Index i = 0; i < t.angle.cols(); ++i) {
            CHECK((t.angle(p, i) >= 0.0f && t.angle(p, i) < two_pi));
            CHECK(t.cos(p, i) == Approx(std::cos(static_cast<double>(p) * theta[static_cast<size_t>(i)])).margin(1e-5));
        }
    CHECK(rope_table_positions(50) == 50);
    CHECK(rope_table_positions(0) == 32);
}

TEST_CASE("llama3 scaling keeps the fast pair, divides the slow pair by 8 and blends the one between", "[rope]") {
    const LoadedModel loaded = open_fixture("hf_llama3_scaled");  // theta 500000, D 6, factor 8, L 1024, low 1, high 4
    const RopeFrequencies f = rope_frequencies(loaded.model.config.rope, loaded.model.config.d_head());
    REQUIRE(f.pairs.size() == 3);
    CHECK(f.low_freq_wavelength == 1024.0);
    CHECK(f.high_freq_wavelength == 256.0);
    const RopePairFrequency &fast = f.pairs[0], &mid = f.pairs[1], &slow = f.pairs[2];
    CHECK(fast.theta == 1.0f);
    CHECK(fast.scaled_theta == fast.theta);
    CHECK(fast.wavelength == Approx(2.0 * std::numbers::pi));
    CHECK(fast.band == RopeBand::kept);
    CHECK(mid.theta == Approx(std::pow(500000.0, -1.0 / 3.0)).epsilon(1e-6));  // wavelength ≈ 499: in the band
    CHECK(mid.band == RopeBand::blended);
    CHECK((mid.wavelength > 256.0 && mid.wavelength < 1024.0));
    // s = (L/λ − low)/(high − low); θ' = (1 − s)·θ/8 + s·θ
    const double s = (1024.0 / mid.wavelength - 1.0) / 3.0;
    CHECK(mid.scaled_theta == Approx((1.0 - s) * mid.theta / 8.0 + s * mid.theta).epsilon(1e-6));
    CHECK((mid.scaled_theta < mid.theta && mid.scaled_theta > mid.theta / 8.0f));
    CHECK(slow.band == RopeBand::divided);
    CHECK(slow.scaled_theta == Approx(slow.theta / 8.0f).epsilon(1e-6));
    CHECK(slow.scaled_wavelength == Approx(8.0 * slow.wavelength).epsilon(1e-6));
    // The view's θ are the model's.
    const std::vector<float> model_theta = rope_inverse_frequencies(loaded.model.config.rope, 6);
    for (size_t i = 0; i < 3; ++i) CHECK(f.pairs[i].scaled_theta == model_theta[i]);
}

TEST_CASE("linear scaling divides every frequency; no scaling keeps them all", "[rope]") {
    const LoadedModel linear = open_fixture("hf_llama_linear");  // factor 4
    const RopeFrequencies f = rope_frequencies(linear.model.config.rope, linear.model.config.d_head());
    REQUIRE(!f.pairs.empty());
    CHECK(f.low_freq_wavelength == 0.0);
    for (const RopePairFrequency& p : f.pairs) {
        CHECK(p.band == RopeBand::divided);
        CHECK(p.scaled_theta == Approx(p.theta / 4.0f).epsilon(1e-6));
    }
    const LoadedModel plain = open_fixture("hf_llama");
    for (const RopePairFrequency& p : rope_frequencies(plain.model.config.rope, 8).pairs) {
        CHECK(p.band == RopeBand::unscaled);
        CHECK(p.scaled_theta == p.theta);
    }
}

TEST_CASE("a query's and a key's pairs are the trace's Q and K, and turned they are its q_rot and k_rot", "[rope]") {
    const LoadedModel loaded = open_fixture("hf_llama");  // H 4, H_kv 2, D 8
    const Stepper st = run_prompt(loaded.model);
    const RopeHeadRef ref{1, 3, 9, 4};  // layer 1, head 3 (reads K head 1), query row 9, key row 4
    auto v = rope_view(st, ref);
    if (!v) FAIL(v.error().message);
    CHECK(v->use == AttentionUse::decoder_self);
    CHECK(v->n_tokens == 12);
    CHECK(v->pairs.kv_head == 1);
    const Tensor& q = *st.output("decoder.layers.1.self_attn.q");          // (4, 12, 8)
    const Tensor& k = *st.output("decoder.layers.1.self_attn.k");          // (2, 12, 8)
    const Tensor& q_rot = *st.output("decoder.layers.1.self_attn.q_rot");  // (4, 12, 8)
    const Tensor& k_rot = *st.output("decoder.layers.1.self_attn.k_rot");  // (2, 12, 8)
    REQUIRE(v->pairs.q.rows() == 4);
    for (int i = 0; i < 4; ++i) {
        INFO("pair " << i);
        CHECK(v->pairs.q(i, 0) == row_of(q, 3, 9)[i]);
        CHECK(v->pairs.q(i, 1) == row_of(q, 3, 9)[i + 4]);
        CHECK(v->pairs.k(i, 0) == row_of(k, 1, 4)[i]);
        CHECK(v->pairs.k(i, 1) == row_of(k, 1, 4)[i + 4]);
        CHECK(v->pairs.q_rot(i, 0) == row_of(q_rot, 3, 9)[i]);
        CHECK(v->pairs.q_rot(i, 1) == row_of(q_rot, 3, 9)[i + 4]);
        CHECK(v->pairs.k_rot(i, 0) == row_of(k_rot, 1, 4)[i]);
        CHECK(v->pairs.k_rot(i, 1) == row_of(k_rot, 1, 4)[i + 4]);
        CHECK(v->pairs.q_angle[static_cast<size_t>(i)] == Approx(9.0 * v->frequencies[static_cast<size_t>(i)]));
        CHECK(v->pairs.k_angle[static_cast<size_t>(i)] == Approx(4.0 * v->frequencies[static_cast<size_t>(i)]));
        // A turn keeps a pair's length.
        CHECK(v->pairs.q_rot.row(i).norm() == Approx(v->pairs.q.row(i).norm()).epsilon(1e-5));
    }
    // The pairs' shares add up to the score.
    float sum = 0.0f;
    for (float c : v->pairs.contribution) sum += c;
    CHECK(sum == Approx(v->curve.at_actual).margin(1e-5));
}

TEST_CASE("the score curve at the real offset is the trace's scaled score (Llama with GQA, Qwen3 with head norms)",
          "[rope]") {
    for (const char* fixture : {"hf_llama", "hf_qwen3", "hf_mistral", "hf_llama3_scaled"}) {
        INFO(fixture);
        const LoadedModel loaded = open_fixture(fixture);
        const Stepper st = run_prompt(loaded.model);
        const ModelConfig& c = loaded.model.config;
        for (const RopeHeadRef& ref :
             {RopeHeadRef{0, 0, 11, 0}, RopeHeadRef{1, c.n_heads - 1, 7, 5}, RopeHeadRef{1, 1, 2, 9}}) {
            INFO("layer " << ref.layer << " head " << ref.head << " query " << ref.query << " key " << ref.key);
            auto v = rope_view(st, ref);
            if (!v) FAIL(v.error().message);
            const RopeScoreCurve& curve = v->curve;
            REQUIRE(curve.offsets.size() == 23);
            CHECK(curve.offsets.front() == -11);
            CHECK(curve.actual_offset == ref.query - ref.key);
            const Tensor& scaled = *st.output("decoder.layers." + std::to_string(ref.layer) + ".self_attn.scaled");
            CHECK(curve.traced_scaled == row_of(scaled, ref.head, ref.query)[ref.key]);
            // The curve turns and dots as the model does: the same bits (a key after the query too, before the mask).
            CHECK(curve.at_actual == curve.traced_scaled);
            CHECK(curve.traced_difference == 0.0f);
        }
    }
}

TEST_CASE("the score depends on the offset alone: shifting both positions changes it only by rounding", "[rope]") {
    for (const char* fixture : {"hf_llama", "hf_qwen3"}) {
        INFO(fixture);
        const LoadedModel loaded = open_fixture(fixture);
        const Stepper st = run_prompt(loaded.model);
        auto v = rope_view(st, {1, 2, 10, 3}, {5, 100, 1000});
        if (!v) FAIL(v.error().message);
        const RopeScoreCurve& curve = v->curve;
        const auto [lo, hi] = std::minmax_element(curve.scores.begin(), curve.scores.end());
        const float size = std::max(std::abs(*lo), std::abs(*hi));
        REQUIRE(*hi - *lo > 1e-3f * size);  // the curve moves with δ, so an unchanged curve is a real finding
        REQUIRE(curve.shifts.size() == 3);
        CHECK(curve.shifts[0].shift == 5);
        for (const RopeShiftCheck& s : curve.shifts) {
            INFO("shift " << s.shift << ": " << s.max_difference);
            CHECK(s.max_difference < 1e-4f * std::max(1.0f, size));
        }
        CHECK(curve.shifts[0].max_difference < 1e-5f * std::max(1.0f, size));
        // The pairs' terms add up to the curve.
        REQUIRE(curve.pair_waves.rows() == static_cast<Eigen::Index>(v->frequencies.size()));
        for (size_t j = 0; j < curve.offsets.size(); ++j)
            CHECK(curve.pair_waves.col(static_cast<Eigen::Index>(j)).sum() ==
                  Approx(curve.scores[j]).margin(1e-5 * std::max(1.0f, size)));
        // Every point is the closed form Σ_i [A_i cos(δθ_i) + B_i sin(δθ_i)]/√D of the pairs before the turn.
        for (size_t j = 0; j < curve.offsets.size(); ++j) {
            INFO("offset " << curve.offsets[j]);
            CHECK(curve.scores[j] == Approx(closed_form_score(v->pairs, v->frequencies, curve.offsets[j]))
                                         .margin(1e-5 * std::max(1.0f, size)));
        }
    }
}

TEST_CASE("the RoPE view refuses what is not there", "[rope]") {
    const LoadedModel loaded = open_fixture("hf_llama");
    const Stepper st = run_prompt(loaded.model);
    const auto message = [&](const RopeHeadRef& ref) {
        auto v = rope_view(st, ref);
        return v ? std::string("ok") : v.error().message;
    };
    CHECK(message({2, 0, 0, 0}) == "layer 2 is outside layers 0..1");
    CHECK(message({0, 4, 0, 0}) == "head 4 is outside heads 0..3");
    CHECK(message({0, 0, 12, 0}) == "query 12 or key 0 is outside rows 0..11");
    CHECK(message({0, 0, 0, 0}) == "ok");

    auto early = Stepper::create(loaded.model.config, loaded.model.weights, st.inputs());
    REQUIRE(early);
    CHECK(!rope_view(*early, {0, 0, 0, 0}));  // nothing run yet

    const Stepper sinusoidal = test::make_stepper(test::small_config());
    auto none = rope_view(sinusoidal, {0, 0, 0, 0});
    REQUIRE(!none);
    CHECK(none.error().message == "this model has no rotary positions");
}

TEST_CASE("Gemma 3's RoPE view turns each layer by its own base and scales as its scaled stage does", "[rope]") {
    // hf_gemma3: layers 0, 1, 3 local (base 10⁴), layer 2 global (10⁶); scores ·12^−½ (query_pre_attn_scalar 12),
    // not 1/√8. With the global base or 1/√D the curve would miss the trace's score.
    const LoadedModel loaded = open_fixture("hf_gemma3");
    const Stepper st = run_prompt(loaded.model);
    for (const RopeHeadRef& ref : {RopeHeadRef{0, 1, 11, 2}, RopeHeadRef{2, 3, 9, 1}}) {
        INFO("layer " << ref.layer);
        auto v = rope_view(st, ref);
        if (!v) FAIL(v.error().message);
        const float traced = v->curve.traced_scaled;
        CHECK(v->curve.traced_difference <= 1e-6f * std::max(1.0f, std::abs(traced)));
        CHECK(std::abs(traced) > 1e-3f);  // a score, not a zero that anything would match
    }
    auto local = rope_view(st, {0, 0, 5, 0}), global = rope_view(st, {2, 0, 5, 0});
    REQUIRE((local && global));
    CHECK(local->frequencies.back() > 10.0f * global->frequencies.back());  // the slow pair: 10⁴ turns faster than 10⁶
}

TEST_CASE("a NoPE layer has no RoPE view", "[rope]") {
    const LoadedModel loaded = open_fixture("hf_smollm3");  // layer 3 leaves RoPE out
    const Stepper st = run_prompt(loaded.model);
    CHECK(rope_view(st, {0, 0, 5, 2}));
    CHECK_FALSE(rope_view(st, {3, 0, 5, 2}));
}
