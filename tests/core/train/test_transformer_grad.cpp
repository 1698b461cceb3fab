// The batched training forward against the stepper's forward, and its gradients against finite differences.
#include "../test_support.h"
#include "train/attention_overlap.h"
#include "train/data_parallel.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace attnlab;
using namespace attnlab::test;

namespace {

// Three pairs of different lengths, so both sides are padded.
std::vector<TokenPair> sample_pairs() {
    return {{{5, 9, 7, 12}, {6, 11, 8}}, {{4, 6}, {13, 5, 9, 10, 7}}, {{17, 8, 19}, {4}}};
}

struct Variant {
    const char* name;
    void (*apply)(ModelConfig&);
};

const Variant kVariants[] = {
    {"post-LN ReLU sinusoidal", [](ModelConfig&) {}},
    {"pre-LN GELU learned PE tied",
     [](ModelConfig& c) {
         c.norm_first = true;
         c.activation = Activation::gelu;
         c.positional = Positional::learned;
         c.tie_embeddings = true;
     }},
    {"GELU-tanh, no PE, no scaling, no final norm",
     [](ModelConfig& c) {
         c.activation = Activation::gelu_tanh;
         c.positional = Positional::none;
         c.scale_embedding = false;
         c.final_norm = false;
     }},
};

// random_weights, plus a generator.bias when the output projection is tied, so the optional bias is covered too.
Weights variant_weights(const ModelConfig& c, uint32_t seed) {
    Weights w = random_weights(c, seed);
    if (c.tie_embeddings) {
        Tensor bias({c.tgt_vocab_size});  // (V)
        for (int64_t j = 0; j < bias.numel(); ++j)
            bias.data[static_cast<size_t>(j)] = 0.05f * static_cast<float>(j % 7) - 0.15f;
        w.set("generator.bias", std::move(bias));
    }
    return w;
}

double loss_of(const ModelConfig& c, const Weights& w, const Batch& b, const TrainOptions& o) {
    auto r = loss_and_gradients(c, w, b, o);
    REQUIRE(r.ok());
    return r->loss;
}

}  // namespace

TEST_CASE("batched logits equal the stepper's logits for every pair", "[train]") {
    for (const Variant& v : kVariants) {
        ModelConfig c = small_config();
        v.apply(c);
        const Weights w = variant_weights(c, 11);
        const auto pairs = sample_pairs();
        const Batch batch = make_batch(pairs, c);
        auto logits = batch_logits(c, w, batch);
        REQUIRE(logits.ok());
        INFO(v.name);
        for (int b = 0; b < batch.B; ++b) {
            ForwardInputs in;
            in.src_ids.assign(batch.src.begin() + b * batch.S, batch.src.begin() + (b + 1) * batch.S);
            in.tgt_ids.assign(batch.tgt_in.begin() + b * batch.T, batch.tgt_in.begin() + (b + 1) * batch.T);
            auto s = Stepper::create(c, w, in);
            REQUIRE(s.ok());
            s->run_all();
            const Tensor& expected = *s->output("logits");  // (T, V)
            for (int t = 0; t < batch.T; ++t)
                for (int64_t j = 0; j < expected.dim(1); ++j)
                    REQUIRE(logits->row(int64_t{b} * batch.T + t)(j) == Approx(expected.row(t)(j)).margin(2e-5));
        }
    }
}

TEST_CASE("every parameter's gradient matches finite differences", "[train][grad]") {
    for (const Variant& v : kVariants) {
        ModelConfig c = small_config();
        v.apply(c);
        INFO(v.name);
        const Weights w = variant_weights(c, 5);
        const Batch batch = make_batch(sample_pairs(), c);
        TrainOptions options;
        options.label_smoothing = 0.1f;
        options.dropout = 0.2f;  // the masks are fixed by the seed, so the loss stays a smooth function
        options.dropout_seed = 42;
        options.ablated_heads[{AttentionUse::cross, 0}] = {1};
        options.head_disagreement = 0.5f;  // large enough that a wrong penalty gradient shows
        options.query_disagreement = 0.5f;
        auto result = loss_and_gradients(c, w, batch, options);
        REQUIRE(result.ok());
        REQUIRE(result->n_tokens == batch.n_target_tokens());
        REQUIRE(result->grads.size() == w.all().size());

        std::mt19937 rng(3);
        for (const auto& [name, grad] : result->grads) {
            // The largest entry and two random ones of every tensor.
            Eigen::Index largest = 0;
            grad.matrix().cwiseAbs().reshaped<Eigen::RowMajor>().maxCoeff(&largest);
            std::vector<size_t> entries{static_cast<size_t>(largest)};
            for (int k = 0; k < 2; ++k)
                entries.push_back(std::uniform_int_distribution<size_t>(0, grad.data.size() - 1)(rng));
            for (size_t i : entries) {
                // Small enough that no ReLU unit crosses zero between the two evaluations (at 1e-2 one of
                // src_embed.weight's does, with these dropout masks), large enough for float32's rounding.
                const float h = 3e-3f;
                Weights plus = w, minus = w;
                plus.set_value(name, static_cast<int64_t>(i), w.at(name).data[i] + h);
                minus.set_value(name, static_cast<int64_t>(i), w.at(name).data[i] - h);
                const double fd = (loss_of(c, plus, batch, options) - loss_of(c, minus, batch, options)) / (2.0 * h);
                const double analytic = grad.data[i];
                INFO(name << "[" << i << "]: analytic " << analytic << ", finite difference " << fd);
                CHECK(std::abs(fd - analytic) <= 2e-3 + 2e-2 * std::abs(analytic));
            }
        }
    }
}

TEST_CASE("the disagreement penalties add λ and μ times the mean overlaps to the loss, linearly", "[train]") {
    const ModelConfig c = small_config();
    const Weights w = random_weights(c, 5);
    const Batch batch = make_batch(sample_pairs(), c);
    const double plain = loss_of(c, w, batch, TrainOptions{});
    const auto penalty = [&](float heads, float queries) {
        TrainOptions o;
        o.head_disagreement = heads;
        o.query_disagreement = queries;
        return loss_of(c, w, batch, o) - plain;
    };
    // A mean overlap of two rows lies in [0, 1], so each penalty is at most its weight per attention;
    // random heads overlap somewhat.
    const int attentions = c.n_encoder_layers + 2 * c.n_decoder_layers;
    const double heads = penalty(2.0f, 0.0f), queries = penalty(0.0f, 2.0f);
    CHECK(heads > 0.0);
    CHECK(heads <= 2.0 * attentions * c.n_heads * (c.n_heads - 1) / 2.0);
    CHECK(queries > 0.0);
    CHECK(queries <= 2.0 * attentions);
    CHECK(penalty(1.0f, 0.0f) == Approx(heads / 2.0).epsilon(1e-3));
    CHECK(penalty(2.0f, 2.0f) == Approx(heads + queries).epsilon(1e-3));
}

TEST_CASE("attention_overlap by hand: rows on the same key overlap 1, on different keys 0", "[train]") {
    // One pair, 2 heads, 2 queries, 2 keys. Head 0 sends both queries to key 0 (a sink); head 1 is the
    // diagonal. Across heads: row 0 overlaps 1, row 1 overlaps 0. Across queries: head 0's two rows
    // overlap 1, head 1's 0.
    Tensor weights({2, 2, 2});  // (B·H, Tq, Tk)
    const float p[] = {1, 0, /**/ 1, 0,   // head 0
                       1, 0, /**/ 0, 1};  // head 1
    std::copy(std::begin(p), std::end(p), weights.data.data());
    const AttentionOverlap o = attention_overlap(weights, 1, {});
    CHECK(o.across_heads == Approx(1.0));
    CHECK(o.rows == 2);
    CHECK(o.across_queries == Approx(1.0));
    CHECK(o.row_pairs == 2);  // one pair of rows per head
    const AttentionOverlap without_head_0 = attention_overlap(weights, 1, {0});
    CHECK(without_head_0.across_heads == Approx(0.0));
    CHECK(without_head_0.across_queries == Approx(0.0));
    CHECK(without_head_0.row_pairs == 1);
}

TEST_CASE("an ablated head passes no gradient to its query, key and value rows", "[train]") {
    const ModelConfig c = small_config();
    const Weights w = random_weights(c, 5);
    TrainOptions options;
    options.ablated_heads[{AttentionUse::encoder_self, 1}] = {0};
    auto r = loss_and_gradients(c, w, make_batch(sample_pairs(), c), options);
    REQUIRE(r.ok());
    const Tensor& g = r->grads.at("encoder.layers.1.self_attn.in_proj_weight");  // (3C, C): W_Q; W_K; W_V
    const int64_t C = c.d_model, D = c.d_head();
    for (int part = 0; part < 3; ++part) {
        CHECK(g.matrix().middleRows(part * C, D).cwiseAbs().maxCoeff() == 0.0f);     // head 0
        CHECK(g.matrix().middleRows(part * C + D, D).cwiseAbs().maxCoeff() > 0.0f);  // head 1
    }
}

TEST_CASE("bad batches are refused with a message", "[train]") {
    ModelConfig c = small_config();
    const Weights w = random_weights(c, 5);
    Batch b = make_batch(sample_pairs(), c);
    b.src[0] = c.src_vocab_size;  // outside the vocabulary
    auto r = loss_and_gradients(c, w, b, TrainOptions{});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("outside the vocabulary") != std::string::npos);

    std::vector<TokenPair> too_long{{std::vector<int>(static_cast<size_t>(c.max_len), 5), {6}}};
    auto r2 = batch_logits(c, w, make_batch(too_long, c));
    REQUIRE_FALSE(r2.ok());
    CHECK(r2.error().message.find("max_len") != std::string::npos);

    ModelConfig decoder_only = c;
    decoder_only.arch = Arch::decoder_only;
    auto r3 =
        loss_and_gradients(decoder_only, init_weights(decoder_only, 1), make_batch(sample_pairs(), c), TrainOptions{});
    REQUIRE_FALSE(r3.ok());
}

TEST_CASE("splitting a batch across threads gives the whole batch's loss and gradients", "[train]") {
    const ModelConfig c = small_config();
    const Weights w = random_weights(c, 9);
    std::vector<TokenPair> pairs = sample_pairs();
    pairs.push_back({{7, 7, 8, 9, 10}, {11, 12}});  // four pairs of different token counts
    TrainOptions options;                           // no dropout: the parts' masks would differ from the whole batch's
    auto whole = loss_and_gradients(c, w, make_batch(pairs, c), options);
    REQUIRE(whole.ok());
    for (int threads : {2, 3, 8}) {
        INFO(threads << " threads");
        auto split = loss_and_gradients_parallel(c, w, make_batch(pairs, c), options, threads);
        REQUIRE(split.ok());
        CHECK(split->n_tokens == whole->n_tokens);
        CHECK(split->n_correct == whole->n_correct);
        CHECK(split->loss == Approx(whole->loss).epsilon(1e-6));
        for (const auto& [name, g] : whole->grads) CHECK(max_abs_diff(split->grads.at(name), g) < 1e-6f);
    }
}
