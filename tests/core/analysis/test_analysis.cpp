// The analysis views' numbers: head statistics by hand, and the logit lens and head summary of the
// Hugging Face fixtures against tests/golden/make_hf_golden.py's PyTorch (analysis.safetensors).
#include "analysis/embedding_similarity.h"
#include "analysis/head_summary.h"
#include "analysis/logit_lens.h"
#include "analysis/token_ranking.h"
#include "forward/step_path.h"
#include "hf/open_model.h"
#include "io/safetensors.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

struct Golden {
    Stepper stepper;
    io::SafetensorsFile analysis;
};

// The fixture folder's model run to the end on the ids its analysis was computed for.
Golden run_fixture(const std::string& name) {
    auto loaded = open_model(kFixtures + name);
    if (!loaded) FAIL(loaded.error().message);
    auto analysis = io::read_safetensors(kFixtures + name + "/analysis.safetensors");
    if (!analysis) FAIL(analysis.error().message);
    auto ids = [&](const char* key) {
        return nlohmann::json::parse(analysis->metadata.at(key)).get<std::vector<int>>();
    };
    ForwardInputs inputs;
    inputs.src_ids = ids("src_ids");
    inputs.tgt_ids = ids("tgt_ids");
    if (analysis->metadata.count("src_token_types")) inputs.src_token_types = ids("src_token_types");
    auto stepper = Stepper::create(loaded->model.config, loaded->model.weights, inputs);
    if (!stepper) FAIL(stepper.error().message);
    stepper->run_all();
    return {std::move(*stepper), std::move(*analysis)};
}

void check_lens(const std::string& fixture, const std::string& first_row) {
    Golden g = run_fixture(fixture);
    const Tensor& want = g.analysis.tensors.at("lens.probs");  // (L + 1, T, V)
    const int64_t rows = want.dim(0), T = want.dim(1), V = want.dim(2);
    constexpr int k = 5;
    auto lens = logit_lens(g.stepper, {}, k);
    if (!lens) FAIL(lens.error().message);
    REQUIRE(static_cast<int64_t>(lens->rows.size()) == rows);
    CHECK(lens->rows.front() == first_row);
    REQUIRE(static_cast<int64_t>(lens->positions.size()) == T);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t t = 0; t < T; ++t) {
            INFO(lens->rows[static_cast<size_t>(r)] << ", position " << t);
            const float* p = want.data.data() + (r * T + t) * V;
            std::vector<float> sorted(p, p + V);
            std::sort(sorted.begin(), sorted.end(), std::greater<>());
            const auto& top = lens->top[static_cast<size_t>(r)][static_cast<size_t>(t)];
            REQUIRE(top.size() == k);
            for (int i = 0; i < k; ++i) {
                CHECK(std::abs(top[static_cast<size_t>(i)].p - p[top[static_cast<size_t>(i)].id]) < 1e-4f);
                CHECK(std::abs(top[static_cast<size_t>(i)].p - sorted[static_cast<size_t>(i)]) < 1e-4f);
            }
        }
}

void check_head_summary(const std::string& fixture, const std::string& first_attention) {
    Golden g = run_fixture(fixture);
    const Tensor& want = g.analysis.tensors.at("heads.stats");  // (L, H, 4)
    const HeadSummary summary = summarize_heads(g.stepper);
    REQUIRE(static_cast<int64_t>(summary.layers.size()) == want.dim(0));
    CHECK(attention_name(summary.layers.front().attention) == first_attention);
    for (int64_t l = 0; l < want.dim(0); ++l)
        for (int64_t h = 0; h < want.dim(1); ++h) {
            INFO("layer " << l << ", head " << h);
            const HeadStats& s = summary.layers[static_cast<size_t>(l)].heads.at(static_cast<size_t>(h));
            const float* w = want.data.data() + (l * want.dim(1) + h) * 4;
            CHECK(std::abs(s.entropy - w[0]) < 1e-4f);
            CHECK(std::abs(s.previous_token - w[1]) < 1e-4f);
            CHECK(std::abs(s.first_token - w[2]) < 1e-4f);
            CHECK(std::abs(s.self - w[3]) < 1e-4f);
        }
}

}  // namespace

TEST_CASE("head statistics of hand-made attention weights", "[analysis]") {
    // Head 0 attends to the previous token (row 0 to itself); head 1 is uniform over the allowed keys.
    Tensor w({2, 3, 3});
    const float weights[] = {1, 0, 0, /**/ 1,    0,    0, /**/ 0,       1,       0,
                             1, 0, 0, /**/ 0.5f, 0.5f, 0, /**/ 1 / 3.f, 1 / 3.f, 1 / 3.f};
    std::copy(std::begin(weights), std::end(weights), w.data.data());
    const std::vector<HeadStats> s = head_stats(w);
    REQUIRE(s.size() == 2);
    CHECK(s[0].entropy == Approx(0.0f));
    CHECK(s[0].previous_token == Approx(1.0f));      // rows 1 and 2
    CHECK(s[0].first_token == Approx(2.0f / 3.0f));  // rows 0 and 1
    CHECK(s[0].self == Approx(1.0f / 3.0f));         // row 0
    CHECK(s[1].entropy == Approx((std::log(2.0) + std::log(3.0)) / 3.0));
    CHECK(s[1].previous_token == Approx((0.5 + 1 / 3.0) / 2.0));
    CHECK(s[1].first_token == Approx((1 + 0.5 + 1 / 3.0) / 3.0));
    CHECK(s[1].self == Approx((1 + 0.5 + 1 / 3.0) / 3.0));

    // A cross-attention (2 queries, 3 keys) has no previous token or self; a fully masked row is left out.
    Tensor cross({1, 2, 3});
    const float c[] = {0, 0, 0, /**/ 0.25f, 0.25f, 0.5f};
    std::copy(std::begin(c), std::end(c), cross.data.data());
    const HeadStats x = head_stats(cross).at(0);
    CHECK(std::isnan(x.previous_token));
    CHECK(std::isnan(x.self));
    CHECK(x.first_token == Approx(0.25f));
    CHECK(x.entropy == Approx(-(0.5 * std::log(0.25) + 0.5 * std::log(0.5))));
}

TEST_CASE("the logit lens of a GPT-2 folder matches PyTorch within 1e-4", "[analysis][hf]") {
    check_lens("hf_gpt2", "tgt.input");
}

TEST_CASE("the logit lens of a BERT folder reads each layer through the MLM head, as PyTorch", "[analysis][hf]") {
    check_lens("hf_bert", "src.embed_norm");
}

TEST_CASE("the head summaries of GPT-2 and BERT folders match PyTorch within 1e-4", "[analysis][hf]") {
    check_head_summary("hf_gpt2", "decoder.layers.0.self_attn");
    check_head_summary("hf_bert", "encoder.layers.0.self_attn");
}

TEST_CASE("the logit lens refuses what it cannot read", "[analysis]") {
    Golden g = run_fixture("hf_gpt2");
    auto outside = logit_lens(g.stepper, {0, 9}, 3);
    REQUIRE_FALSE(outside);
    CHECK(outside.error().message == "position 9 is outside the sequence of 9");
    auto some = logit_lens(g.stepper, {8, 2}, 3);
    REQUIRE(some);
    CHECK(some->positions == std::vector<int>{8, 2});

    g.stepper.run_to(3);
    auto early = logit_lens(g.stepper, {}, 3);
    REQUIRE_FALSE(early);
    CHECK_THAT(early.error().message, Catch::Contains("has not reached decoder.layers.1.residual2"));
}

TEST_CASE("nearest tokens by cosine and the 2-D PCA of GPT-2's embeddings match PyTorch", "[analysis][hf]") {
    auto loaded = open_model(kFixtures + "hf_gpt2");
    REQUIRE(loaded);
    auto analysis = io::read_safetensors(kFixtures + "hf_gpt2/analysis.safetensors");
    REQUIRE(analysis);
    const Tensor& table = loaded->model.weights.at("wte.weight");   // (50, 32)
    const Tensor& cosine = analysis->tensors.at("similar.cosine");  // (50, 50)
    const int64_t V = table.dim(0);

    for (int id : {0, 7, 49}) {
        INFO("token " << id);
        auto near = nearest_tokens(table, id, 5);
        REQUIRE(near);
        REQUIRE(near->size() == 5);
        std::vector<float> others;
        for (int64_t v = 0; v < V; ++v)
            if (v != id) others.push_back(cosine.data[id * V + v]);
        std::sort(others.begin(), others.end(), std::greater<>());
        for (size_t r = 0; r < near->size(); ++r) {
            CHECK((*near)[r].id != id);
            CHECK(std::abs((*near)[r].cosine - cosine.data[id * V + (*near)[r].id]) < 1e-5f);
            CHECK(std::abs((*near)[r].cosine - others[r]) < 1e-5f);
        }
    }

    const std::vector<int> ids = {49, 7, 23, 0, 41, 12, 30, 5};  // make_hf_golden.py's PCA_IDS
    auto pca = pca_2d(table, ids);
    if (!pca) FAIL(pca.error().message);
    const Mat& coords = pca->coords;
    const Tensor& want = analysis->tensors.at("pca.coords");  // (8, 2)
    REQUIRE(coords.rows() == 8);
    for (int i = 0; i < 8; ++i)
        for (int c = 0; c < 2; ++c) CHECK(std::abs(coords(i, c) - want.data[i * 2 + c]) < 1e-4f);

    CHECK(nearest_tokens(table, 50, 3).error().message == "token id 50 is outside the vocabulary 0..49");
    CHECK(pca_2d(table, {3, 3, 4}).error().message == "a 2-D picture needs at least 3 different tokens");
}

TEST_CASE("PCA's explained variance: an exact case, and each share against the coordinates' own spread", "[analysis]") {
    // Six rows around (1, 2, 3): ±3 along x, ±1 along y, ±0.5 along z. Centred, the squared spreads
    // are 18, 2 and 0.5 of 20.5: PC1 is x (18 / 20.5), PC2 is y (2 / 20.5).
    Tensor table({6, 3});
    const float rows[6][3] = {{3, 0, 0}, {-3, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 0.5f}, {0, 0, -0.5f}};
    for (int i = 0; i < 6; ++i)
        for (int c = 0; c < 3; ++c) table.data[static_cast<size_t>(i * 3 + c)] = rows[i][c] + static_cast<float>(c + 1);
    auto pca = pca_2d(table, {0, 1, 2, 3, 4, 5});
    if (!pca) FAIL(pca.error().message);
    CHECK(std::abs(pca->explained[0] - 18.0f / 20.5f) < 1e-5f);
    CHECK(std::abs(pca->explained[1] - 2.0f / 20.5f) < 1e-5f);
    CHECK(std::abs(pca->coords(0, 0) - 3.0f) < 1e-5f);  // the sign rule: the largest coordinate positive
    CHECK(std::abs(pca->coords(2, 1) - 1.0f) < 1e-5f);

    // Any table: each share is its coordinates' squared spread over the rows' whole squared spread.
    Tensor random({20, 7});
    for (size_t k = 0; k < random.data.size(); ++k) random.data[k] = std::sin(static_cast<float>(k) * 1.7f) * 3.0f;
    const std::vector<int> ids = {0, 3, 5, 8, 11, 13, 19};
    auto p = pca_2d(random, ids);
    if (!p) FAIL(p.error().message);
    Eigen::RowVectorXf mean = Eigen::RowVectorXf::Zero(7);
    for (int id : ids) mean += random.matrix().row(id);
    mean /= static_cast<float>(ids.size());
    float total = 0.0f;
    for (int id : ids) total += (random.matrix().row(id) - mean).squaredNorm();
    for (int c = 0; c < 2; ++c) CHECK(std::abs(p->explained[c] - p->coords.col(c).squaredNorm() / total) < 1e-4f);
    CHECK(p->explained[0] >= p->explained[1]);
    CHECK(p->explained[0] + p->explained[1] <= 1.0f + 1e-5f);
}

TEST_CASE("tokens ranked by a row: highest or lowest first, ties to the lower id", "[analysis]") {
    RowVec row(6);
    row << 0.5f, 2.0f, -1.0f, 2.0f, -1.0f, 0.0f;
    const auto ids = [](const std::vector<TokenScore>& r) {
        std::vector<int> out;
        for (const TokenScore& t : r) out.push_back(t.id);
        return out;
    };
    CHECK(ids(rank_tokens(row, 3)) == std::vector<int>{1, 3, 0});
    CHECK(ids(rank_tokens(row, 3, false)) == std::vector<int>{2, 4, 5});
    CHECK(rank_tokens(row, 1, false).front().value == -1.0f);
    CHECK(rank_tokens(row, 10).size() == 6);
}
