// Attention through the whole model: softmax rows, masks, causality, padding, heads and W^O.
#include "ops/attention.h"
#include "ops/gemm.h"
#include "ops/linear.h"
#include "ops/softmax.h"
#include "parallel.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace attnlab;
using namespace attnlab::test;

namespace {

const char* kAttentions[] = {"encoder.layers.0.self_attn", "encoder.layers.1.self_attn", "decoder.layers.0.self_attn",
                             "decoder.layers.1.cross_attn"};

}  // namespace

TEST_CASE("every attention row sums to 1 and masked weights are exactly 0", "[attention]") {
    ForwardInputs in = sample_inputs();
    in.src_ids = {5, 9, 7, 2, 0, 0};  // two pads at the end
    in.tgt_ids = {1, 6, 11, 0};       // one pad
    Stepper s = make_stepper(small_config(), in);
    s.run_all();
    for (const char* a : kAttentions) {
        const std::string path = a;
        const Tensor& w = *s.output(path + ".weights");  // (H, Tq, Tk)
        const Tensor& m = *s.output(path + ".masked");
        const std::string mask_path = path.starts_with("encoder")    ? "masks.encoder_self"
                                      : path.ends_with("cross_attn") ? "masks.cross"
                                                                     : "masks.decoder_self";
        const Tensor& mask = *s.output(mask_path);  // (Tq, Tk)
        REQUIRE(w.rank() == 3);
        for (int64_t h = 0; h < w.dim(0); ++h)
            for (int64_t i = 0; i < w.dim(1); ++i) {
                CHECK(w.slice(h).row(i).sum() == Approx(1.0f).margin(1e-6));
                for (int64_t j = 0; j < w.dim(2); ++j) {
                    if (mask.data[i * w.dim(2) + j] != 0.0f) continue;
                    CHECK(w.slice(h)(i, j) == 0.0f);
                    CHECK(std::isinf(m.slice(h)(i, j)));
                }
            }
    }
    // The decoder mask is the look-ahead mask with padded keys removed.
    const Tensor& dm = *s.output("masks.decoder_self");
    CHECK(dm.data == FloatBuffer{1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0});
    const Tensor& cross = *s.output("masks.cross");  // (T, S): source pads masked on every row
    CHECK(cross.shape == Shape{4, 6});
    for (int i = 0; i < 4; ++i) CHECK(cross.row(i).sum() == 4.0f);
}

TEST_CASE("changing a future target token leaves earlier positions unchanged bit for bit", "[attention]") {
    Stepper a = make_stepper(small_config());
    a.run_all();
    ForwardInputs in = sample_inputs();
    in.tgt_ids.back() = 17;  // the last position changes
    Stepper b = make_stepper(small_config(), in);
    b.run_all();
    const Tensor &la = *a.output("logits"), &lb = *b.output("logits");  // (T, V)
    const int64_t last = la.dim(0) - 1;
    for (int64_t t = 0; t < last; ++t) CHECK((la.row(t).array() == lb.row(t).array()).all());
    CHECK((la.row(last).array() != lb.row(last).array()).any());
}

TEST_CASE("changing a padded source token changes nothing", "[attention]") {
    ForwardInputs in = sample_inputs();
    in.src_ids = {5, 9, 7, 2, 0, 0};
    Stepper a = make_stepper(small_config(), in);
    a.run_all();
    // What a padded position holds comes from the <pad> embedding row: change it.
    Weights w = random_weights(small_config(), 7);
    Tensor emb = w.at("src_embed.weight");
    for (int64_t c = 0; c < emb.dim(1); ++c) emb.data[c] += 3.0f;  // row 0 is <pad>
    w.set("src_embed.weight", emb);
    auto b = Stepper::create(small_config(), w, in);
    REQUIRE(b);
    b->run_all();
    CHECK(bit_equal(*a.output("logits"), *b->output("logits")));
    CHECK(
        bit_equal(*a.output("decoder.layers.1.cross_attn.weights"), *b->output("decoder.layers.1.cross_attn.weights")));
    // The unpadded encoder rows are untouched; the padded rows themselves did change, so a difference would show.
    const Tensor &ea = *a.output("encoder.output"), &eb = *b->output("encoder.output");  // (S, C)
    for (int64_t t = 0; t < 4; ++t) CHECK((ea.row(t).array() == eb.row(t).array()).all());
    CHECK((ea.row(4).array() != eb.row(4).array()).any());
}

TEST_CASE("multi-head output is concat(heads)·W_Oᵀ + b, each head computed on its own", "[attention]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    const std::string p = "encoder.layers.0.self_attn";
    const Tensor& q = *s.output(p + ".q");  // (H, S, D)
    const Tensor& k = *s.output(p + ".k");
    const Tensor& v = *s.output(p + ".v");
    const int64_t H = q.dim(0), S = q.dim(1), D = q.dim(2);
    Mat concat(S, H * D);
    for (int64_t h = 0; h < H; ++h) {
        Mat scores = q.slice(h) * k.slice(h).transpose() / std::sqrt(static_cast<float>(D));
        for (int64_t i = 0; i < S; ++i) {
            const float m = scores.row(i).maxCoeff();
            scores.row(i) = (scores.row(i).array() - m).exp().matrix();
            scores.row(i) /= scores.row(i).sum();
        }
        concat.middleCols(h * D, D) = scores * v.slice(h);
    }
    const Weights& w = s.weights();
    Mat expected = concat * w.at(p + ".out_proj.weight").matrix().transpose();
    expected.rowwise() += w.at(p + ".out_proj.bias").matrix().row(0);
    const Tensor& out = *s.output(p + ".out");
    CHECK(max_abs_diff(out, Tensor::from_matrix(expected)) < 1e-5f);
    // Q itself is x·W_Qᵀ + b_Q on the first C rows of the packed in_proj.
    const Tensor& x = *s.output("src.input");
    const Tensor q_flat = linear_forward(x, w.at(p + ".in_proj_weight"), &w.at(p + ".in_proj_bias"), 0, H * D);
    CHECK(q.slice(1)(2, 3) == q_flat.matrix()(2, D + 3));  // head 1 is Q's second block of D columns
}

TEST_CASE("a query row with every key masked gets zero weights and a flag, never NaN", "[attention]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    for (int j = 0; j < 5; ++j) REQUIRE(s.set_mask_cell(AttentionUse::encoder_self, 2, j, false));
    const TraceEntry* e = s.entry("encoder.layers.0.self_attn.weights");
    REQUIRE(e);
    CHECK(e->fully_masked_rows == std::vector<int64_t>{2});
    for (int64_t h = 0; h < e->value.dim(0); ++h) CHECK(e->value.slice(h).row(2).isZero(0.0f));
    for (float x : s.output("logits")->data) CHECK(std::isfinite(x));
    CHECK(s.entry("encoder.layers.1.self_attn.weights")->fully_masked_rows == std::vector<int64_t>{2});
    CHECK(s.entry("decoder.layers.0.cross_attn.weights")->fully_masked_rows.empty());
}

TEST_CASE("an ablated head's context is zero and its effect reaches the logits", "[attention]") {
    Stepper s = make_stepper(small_config());
    s.run_all();
    const Tensor before = *s.output("logits");
    REQUIRE(s.set_head_ablated(AttentionSite{AttentionUse::cross, 0}, 1, true));
    const Tensor& ctx = *s.output("decoder.layers.0.cross_attn.context");  // (H, T, D)
    CHECK(ctx.slice(1).isZero(0.0f));
    CHECK_FALSE(ctx.slice(0).isZero(0.0f));
    CHECK(max_abs_diff(before, *s.output("logits")) > 1e-4f);
    REQUIRE(s.set_head_ablated(AttentionSite{AttentionUse::cross, 0}, 1, false));
    CHECK(bit_equal(before, *s.output("logits")));
}

TEST_CASE("weights·V leaves out a causal row's zero weights with the full product's bits, but not past a NaN in V",
          "[attention]") {
    // (H=3, T=40, D=64) causal weights from softmax, V with 1 KV head (grouped): 40 rows are 5 row tiles, the last
    // rows of a tile see more keys than the first.
    const int64_t H = 3, T = 40, D = 64;
    Tensor scores = random_tensor({H, T, T}, 5);
    Tensor causal({T, T});
    for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j <= i; ++j) causal.data[static_cast<size_t>(i * T + j)] = 1.0f;
    const Tensor weights = softmax_rows(mask_scores(scores, causal));
    Tensor v = random_tensor({1, T, D}, 6);
    auto full_product = [&] {  // every key, head by head, through the plain gemm
        Tensor out({H, T, D});
        for (int64_t h = 0; h < H; ++h)
            gemm_in_out(weights.slice(h).data(), T, T, T, v.slice(0).data(), D, D, out.slice(h).data(), D);
        return out;
    };
    CHECK(bit_equal(attention_context(weights, v, {}), full_product()));
    // A NaN in V's last row, which only the last query row weighs: PyTorch's 0 · NaN makes every row NaN.
    v.data[static_cast<size_t>((T - 1) * D + 5)] = std::numeric_limits<float>::quiet_NaN();
    const Tensor with_nan = attention_context(weights, v, {});
    for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < T; ++i) CHECK(std::isnan(with_nan.slice(h)(i, 5)));
    CHECK(std::isnan(full_product().slice(0)(0, 5)));
}

TEST_CASE("÷√D and the mask, split by rows of all the heads, are the plain loops' numbers on any thread count",
          "[attention]") {
    // (3, 200, 300): 180,000 entries, past the size from which the rows are split; 3 heads on 2 threads split inside
    // a head. A mask that forbids a different set of keys in each query row.
    const int64_t H = 3, Tq = 200, Tk = 300;
    const Tensor scores = random_tensor({H, Tq, Tk}, 8);
    Tensor mask({Tq, Tk});
    for (int64_t i = 0; i < Tq; ++i)
        for (int64_t j = 0; j < Tk; ++j) mask.data[static_cast<size_t>(i * Tk + j)] = (i * 7 + j * 3) % 5 ? 1.0f : 0.0f;
    Tensor scaled(scores.shape), masked(scores.shape);
    const float inv = 1.0f / std::sqrt(64.0f);
    for (size_t e = 0; e < scores.data.size(); ++e) {
        scaled.data[e] = scores.data[e] * inv;
        masked.data[e] =
            mask.data[e % mask.data.size()] == 0.0f ? -std::numeric_limits<float>::infinity() : scaled.data[e];
    }
    const int threads_before = thread_count();
    for (const int threads : {1, 2, 3}) {
        set_thread_count(threads);
        INFO("threads " << threads);
        CHECK(bit_equal(scale_scores(scores, 64.0f), scaled));
        CHECK(bit_equal(mask_scores(scaled, mask), masked));
        Tensor in_place = scaled;
        mask_scores_in_place(in_place, mask);
        CHECK(bit_equal(in_place, masked));
    }
    set_thread_count(threads_before);
}

TEST_CASE("QKᵀ is called overflow-free only when no score can overflow", "[attention]") {
    // (H=2, T=3, D=4); head 1's rows are scaled by `big`, so its largest score is about 4·big².
    const auto qk = [](float big) {
        Tensor q({2, 3, 4}), k({2, 3, 4});
        for (int64_t i = 0; i < 12; ++i) {
            q.data[static_cast<size_t>(i)] = k.data[static_cast<size_t>(i)] = 0.5f + 0.1f * static_cast<float>(i % 5);
            q.data[static_cast<size_t>(12 + i)] = k.data[static_cast<size_t>(12 + i)] = big;
        }
        return std::pair{q, k};
    };
    const auto has_non_finite = [](const Tensor& t) {
        for (const float x : t.data)
            if (!std::isfinite(x)) return true;
        return false;
    };
    {
        const auto [q, k] = qk(1e18f);  // 4e36: finite
        CHECK(scores_cannot_overflow(q, k));
        CHECK_FALSE(has_non_finite(attention_scores(q, k)));
    }
    {
        const auto [q, k] = qk(1e19f);  // 4e38 > FLT_MAX: every entry finite, some scores not
        REQUIRE(has_non_finite(attention_scores(q, k)));
        CHECK_FALSE(scores_cannot_overflow(q, k));
    }
    {
        const auto [q, k] = qk(7e18f);  // ‖q‖‖k‖ = 1.96e38: finite scores, but past the margin of FLT_MAX / 2
        CHECK_FALSE(has_non_finite(attention_scores(q, k)));
        CHECK_FALSE(scores_cannot_overflow(q, k));
    }
    {
        auto [q, k] = qk(1.0f);
        CHECK(scores_cannot_overflow(q, k));
        k.data[5] = std::numeric_limits<float>::quiet_NaN();
        CHECK_FALSE(scores_cannot_overflow(q, k));
        k.data[5] = std::numeric_limits<float>::infinity();
        CHECK_FALSE(scores_cannot_overflow(q, k));
        k.data[5] = 1.0f;
        for (const float bad : {-std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity(),
                                -1e38f}) {  // |q| counts: a negative NaN, −∞, 4 · 1e38 · 0.9 past FLT_MAX / 2
            q.data[7] = bad;
            CHECK_FALSE(scores_cannot_overflow(q, k));
        }
        q.data[7] = -1e37f;  // 3.6e37
        CHECK(scores_cannot_overflow(q, k));
    }
}
