// What a training run records besides its loss (train/probes.h): gradient norms by layer against the
// gradients loss_and_gradients returns, head entropies by hand and against the stepper's attention
// weights, the trainer's per-step norms, and the record's bounded thinning.
#include "../hf/hf_golden_support.h"
#include "../test_support.h"
#include "analysis/head_summary.h"
#include "train/data_parallel.h"
#include "train/graph_run.h"
#include "train/probes.h"
#include "train/trainer.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace attnlab;
using namespace attnlab::test;

namespace {

std::vector<TokenPair> sample_pairs() {
    return {{{5, 9, 7, 12}, {6, 11, 8}}, {{4, 6}, {13, 5, 9, 10, 7}}, {{17, 8, 19}, {4}}};
}

double squared_norm(const Tensor& t) {
    double sum = 0.0;
    for (float x : t.data) sum += static_cast<double>(x) * x;
    return sum;
}

// The names of one layer's parameters, written out as torch.nn.Transformer names them.
std::vector<std::string> layer_params(const std::string& layer, bool decoder) {
    std::vector<std::string> out;
    std::vector<std::string> modules = {"self_attn.in_proj_weight",
                                        "self_attn.in_proj_bias",
                                        "self_attn.out_proj.weight",
                                        "self_attn.out_proj.bias",
                                        "linear1.weight",
                                        "linear1.bias",
                                        "linear2.weight",
                                        "linear2.bias",
                                        "norm1.weight",
                                        "norm1.bias",
                                        "norm2.weight",
                                        "norm2.bias"};
    if (decoder)
        for (const char* m :
             {"multihead_attn.in_proj_weight", "multihead_attn.in_proj_bias", "multihead_attn.out_proj.weight",
              "multihead_attn.out_proj.bias", "norm3.weight", "norm3.bias"})
            modules.push_back(m);
    for (const auto& m : modules) out.push_back(layer + "." + m);
    return out;
}

}  // namespace

TEST_CASE("each layer's gradient norm equals the norm of its parameters' gradients from loss_and_gradients",
          "[train][probes]") {
    const ModelConfig c = small_config();
    const Weights w = random_weights(c, 5);
    auto r = loss_and_gradients(c, w, make_batch(sample_pairs(), c), TrainOptions{});
    REQUIRE(r.ok());
    const std::vector<ParamGroup> groups = param_groups(c, w);
    const std::vector<float> norms = group_norms(groups, r->grads);

    // The rows, in the forward pass's order.
    REQUIRE(groups.size() == 7);
    const std::vector<ParamGroupId> want = {{ParamGroupKind::embeddings, -1},   {ParamGroupKind::encoder_layer, 0},
                                            {ParamGroupKind::encoder_layer, 1}, {ParamGroupKind::encoder_norm, -1},
                                            {ParamGroupKind::decoder_layer, 0}, {ParamGroupKind::decoder_layer, 1},
                                            {ParamGroupKind::output_head, -1}};
    for (size_t g = 0; g < groups.size(); ++g) CHECK(groups[g].id == want[g]);

    // Each row by hand, from the names written out here.
    const auto direct = [&](const std::vector<std::string>& names) {
        double sum = 0.0;
        for (const auto& n : names) sum += squared_norm(r->grads.at(n));
        return std::sqrt(sum);
    };
    CHECK(norms[0] == Approx(direct({"src_embed.weight", "tgt_embed.weight"})).epsilon(1e-5));
    CHECK(norms[1] == Approx(direct(layer_params("encoder.layers.0", false))).epsilon(1e-5));
    CHECK(norms[2] == Approx(direct(layer_params("encoder.layers.1", false))).epsilon(1e-5));
    CHECK(norms[3] == Approx(direct({"encoder.norm.weight", "encoder.norm.bias"})).epsilon(1e-5));
    CHECK(norms[4] == Approx(direct(layer_params("decoder.layers.0", true))).epsilon(1e-5));
    CHECK(norms[5] == Approx(direct(layer_params("decoder.layers.1", true))).epsilon(1e-5));
    CHECK(norms[6] == Approx(direct({"decoder.norm.weight", "decoder.norm.bias", "generator.weight"})).epsilon(1e-5));
    for (float n : norms) CHECK(n > 0.0f);

    // Every parameter in exactly one row: the rows' squares add up to the global norm's.
    std::set<std::string> seen;
    size_t listed = 0;
    for (const ParamGroup& g : groups) {
        listed += g.params.size();
        seen.insert(g.params.begin(), g.params.end());
    }
    CHECK(listed == seen.size());
    CHECK(seen.size() == w.all().size());
    double sum = 0.0;
    for (float n : norms) sum += static_cast<double>(n) * n;
    CHECK(std::sqrt(sum) == Approx(global_norm(r->grads)).epsilon(1e-5));
}

TEST_CASE("the rows follow the model: learned positions, tied embeddings, no final norms, base's depth",
          "[train][probes]") {
    ModelConfig c = small_config();
    c.positional = Positional::learned;
    c.tie_embeddings = true;
    c.final_norm = false;
    const std::vector<ParamGroup> groups = param_groups(c, init_weights(c, 1));
    REQUIRE(groups.size() == 5);  // no encoder norm, and no output head: the projection is the target embedding
    CHECK(groups.front().params ==
          std::vector<std::string>{"pos_embed.weight", "src_embed.weight", "tgt_embed.weight"});
    CHECK(groups.back().id == ParamGroupId{ParamGroupKind::decoder_layer, 1});

    ModelConfig deep = small_config();
    deep.n_encoder_layers = 12;  // "encoder.layers.1." must not take layers 10 and 11's parameters
    deep.n_decoder_layers = 1;
    const std::vector<ParamGroup> deep_groups = param_groups(deep, init_weights(deep, 1));
    REQUIRE(deep_groups.size() == 1 + 12 + 1 + 1 + 1);
    CHECK(deep_groups[2].id == ParamGroupId{ParamGroupKind::encoder_layer, 1});
    CHECK(deep_groups[2].params.size() == 12);
}

TEST_CASE("every family's rows hold each parameter its gradient reaches once, in the forward pass's order",
          "[train][probes]") {
    for (const char* family : {"hf_gpt2", "hf_bert", "hf_llama", "hf_qwen3", "hf_marian"}) {
        INFO(family);
        const LoadedModel loaded = open(hf_fixture(family));
        const ModelConfig& c = loaded.model.config;
        const Expected expected = read_expected(family);
        GraphRun run(c);
        run.run(loaded.model.weights, expected.inputs);
        const size_t logits = *run.logits_step();
        const std::map<std::string, Tensor> grads =
            run.backward({{logits, random_tensor(run.output(logits).shape, 3)}});

        const std::vector<ParamGroup> groups = param_groups(c, loaded.model.weights);
        std::vector<ParamGroupId> want = {{ParamGroupKind::embeddings, -1}};
        if (c.has_encoder())
            for (int i = 0; i < c.n_encoder_layers; ++i) want.push_back({ParamGroupKind::encoder_layer, i});
        if (c.has_decoder())
            for (int i = 0; i < c.n_decoder_layers; ++i) want.push_back({ParamGroupKind::decoder_layer, i});
        want.push_back({ParamGroupKind::output_head, -1});
        REQUIRE(groups.size() == want.size());  // none of these has an encoder's final norm
        for (size_t g = 0; g < groups.size(); ++g) CHECK(groups[g].id == want[g]);

        std::map<std::string, int> listed;
        for (const ParamGroup& g : groups)
            for (const std::string& name : g.params) ++listed[name];
        for (const auto& entry : grads) {
            INFO(entry.first);
            CHECK(listed[entry.first] == 1);
        }
        for (const auto& entry : listed) CHECK(loaded.model.weights.find(entry.first) != nullptr);
        double sum = 0.0;
        for (float n : group_norms(groups, grads)) sum += static_cast<double>(n) * n;
        CHECK(std::sqrt(sum) == Approx(global_norm(grads)).epsilon(1e-5));
    }
}

TEST_CASE("a training step reports the norms of its own batch's gradients, summing to the global norm",
          "[train][probes]") {
    TrainSettings s;
    s.task = "copy";
    s.steps = 3;
    s.batch_size = 4;
    s.threads = 1;
    s.seed = 7;
    auto trainer = Trainer::create(s);
    REQUIRE(trainer.ok());
    Trainer& t = **trainer;

    // The first step's batch, drawn as train_step draws it: the same task, the same generator.
    auto task = make_task(s.task, s.seed);
    REQUIRE(task.ok());
    std::mt19937_64 rng(s.seed * 0x9E3779B97F4A7C15ull + 1);
    std::vector<TokenPair> pairs;
    for (int i = 0; i < s.batch_size; ++i) pairs.push_back(to_token_pair(**task, (*task)->sample_train(rng)));
    TrainOptions options;
    options.label_smoothing = s.label_smoothing;
    options.dropout = s.dropout;
    options.dropout_seed = rng();
    const Model before = t.model();
    auto direct = loss_and_gradients_parallel(before.config, before.weights, make_batch(pairs, before.config), options, s.threads);
    REQUIRE(direct.ok());

    const StepReport report = t.train_step();
    REQUIRE(report.loss == Approx(direct->loss).epsilon(1e-6));  // the same batch
    const std::vector<float> want = group_norms(param_groups(before.config, before.weights), direct->grads);
    REQUIRE(report.group_grad_norms.size() == want.size());
    REQUIRE(report.group_grad_norms.size() == t.param_groups().size());
    double sum = 0.0;
    for (size_t g = 0; g < want.size(); ++g) {
        CHECK(report.group_grad_norms[g] == Approx(want[g]).epsilon(1e-6));
        sum += static_cast<double>(report.group_grad_norms[g]) * report.group_grad_norms[g];
    }
    CHECK(std::sqrt(sum) == Approx(report.grad_norm).epsilon(1e-5));  // Adam's global norm, before clipping
}

TEST_CASE("a uniform head's entropy is ln(keys), a one-hot head's 0, masked rows left out", "[train][probes]") {
    Tensor uniform({2, 3, 5});  // (H, Tq, Tk)
    for (float& x : uniform.data) x = 0.2f;
    for (float e : head_entropies(uniform)) CHECK(e == Approx(std::log(5.0f)).epsilon(1e-6));

    Tensor one_hot({1, 2, 3, 4});  // (1, H, Tq, Tk), as the batched attention keeps them
    for (int h = 0; h < 2; ++h)
        for (int i = 0; i < 3; ++i) one_hot.data[static_cast<size_t>((h * 3 + i) * 4 + (i + h) % 4)] = 1.0f;
    const std::vector<float> sharp = head_entropies(one_hot);
    REQUIRE(sharp.size() == 2);
    for (float e : sharp) CHECK(e == 0.0f);

    // A causal head that spreads each row evenly over the keys it sees scores uniform_entropy's mean of ln(i + 1);
    // a row with every key masked (all zeros) counts for nothing.
    const int T = 4;
    Tensor causal({1, T + 1, T});
    for (int i = 0; i < T; ++i)
        for (int j = 0; j <= i; ++j) causal.data[static_cast<size_t>(i * T + j)] = 1.0f / static_cast<float>(i + 1);
    CHECK(head_entropies(causal)[0] == Approx(uniform_entropy(AttentionUse::decoder_self, 3, T)).epsilon(1e-6));
    CHECK(uniform_entropy(AttentionUse::decoder_self, 3, T) ==
          Approx((std::log(1.0) + std::log(2.0) + std::log(3.0) + std::log(4.0)) / 4.0).epsilon(1e-6));
    CHECK(uniform_entropy(AttentionUse::cross, 6, T) == Approx(std::log(6.0f)));
    CHECK(uniform_entropy(AttentionUse::encoder_self, 6, T) == Approx(std::log(6.0f)));

    // Half on one key and half on another: ln 2.
    Tensor halves({1, 1, 4});
    halves.data[1] = halves.data[3] = 0.5f;
    CHECK(head_entropies(halves)[0] == Approx(std::log(2.0f)));
}

TEST_CASE("the held-out pair's entropies equal the Analysis view's head summary of the stepper's run",
          "[train][probes]") {
    const ModelConfig c = small_config();
    const Weights w = random_weights(c, 9);
    const TokenPair pair{{5, 9, 7, 12}, {6, 11, 8}};
    auto entropies = attention_entropies(c, w, pair);
    REQUIRE(entropies.ok());
    const std::vector<AttentionSite> sites = pass_attention_sites(c);
    REQUIRE(entropies->size() == sites.size());
    REQUIRE(sites.size() == 6);  // 2 encoder layers, then (self, cross) for each of 2 decoder layers
    CHECK(sites[2] == AttentionSite{AttentionUse::decoder_self, 0});
    CHECK(sites[3] == AttentionSite{AttentionUse::cross, 0});

    const Batch batch = make_batch({pair}, c);
    ForwardInputs in;
    in.src_ids = batch.src;
    in.tgt_ids = batch.tgt_in;
    auto stepper = Stepper::create(c, w, in);
    REQUIRE(stepper.ok());
    stepper->run_all();
    const HeadSummary summary = summarize_heads(*stepper);
    REQUIRE(summary.layers.size() == sites.size());
    for (size_t i = 0; i < sites.size(); ++i) {
        const SiteEntropy& e = (*entropies)[i];
        CHECK(e.site == sites[i]);
        // The stepper runs its attentions in the same order.
        const auto layer = std::find_if(summary.layers.begin(), summary.layers.end(),
                                        [&](const HeadSummary::Layer& l) { return l.attention == e.site; });
        REQUIRE(layer != summary.layers.end());
        REQUIRE(e.heads.size() == static_cast<size_t>(c.n_heads));
        for (int h = 0; h < c.n_heads; ++h) {
            CHECK(e.heads[static_cast<size_t>(h)] == Approx(layer->heads[static_cast<size_t>(h)].entropy).margin(1e-4));
            CHECK(e.heads[static_cast<size_t>(h)] >= 0.0f);
            CHECK(e.heads[static_cast<size_t>(h)] <= e.uniform + 1e-5f);
        }
        CHECK(e.uniform == Approx(uniform_entropy(e.site.use, batch.S, batch.T)));
    }

    // Bad pairs are refused with the training pass's message.
    auto bad = attention_entropies(c, w, TokenPair{{5, 99}, {6}});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("outside the vocabulary") != std::string::npos);
}

TEST_CASE("the probe record keeps a point per due step, NaN norms at step 0, and thins to kMaxPoints",
          "[train][probes]") {
    const std::vector<ParamGroupId> groups = {{ParamGroupKind::embeddings, -1}, {ParamGroupKind::output_head, -1}};
    const std::vector<AttentionSite> sites = {{AttentionUse::encoder_self, 0}, {AttentionUse::cross, 0}};
    ProbeRecord r(groups, sites, 2, 3);
    const auto entropies = [&](float v) {
        return std::vector<SiteEntropy>{{sites[0], {v, v + 1}, 1.5f}, {sites[1], {v + 2, v + 3}, 2.5f}};
    };
    CHECK(r.due(0));
    CHECK_FALSE(r.due(2));
    CHECK(r.due(3));
    r.add(0, {}, entropies(0.0f));
    r.add(3, {1.0f, 2.0f}, entropies(0.5f));
    REQUIRE(r.size() == 2);
    CHECK(std::isnan(r.grad_norm(0, 0)));
    CHECK(r.grad_norm(1, 1) == 2.0f);
    CHECK(r.entropy(1, 1, 1) == 3.5f);
    CHECK(r.entropy(0, 0, 1) == 1.0f);
    CHECK(r.uniform_entropy(1) == 2.5f);

    // Past kMaxPoints: the stride doubles, every other point goes, step 0 and the newest stay.
    for (int step = 6; r.size() < ProbeRecord::kMaxPoints - 1; step += 3) r.add(step, {1.0f, 1.0f}, entropies(1.0f));
    const int last = r.step(r.size() - 1);
    CHECK(r.every() == 3);
    r.add(last + 3, {4.0f, 5.0f}, entropies(2.0f));
    CHECK(r.every() == 6);
    CHECK(r.size() <= ProbeRecord::kMaxPoints / 2 + 1);
    CHECK(r.step(0) == 0);
    CHECK(std::isnan(r.grad_norm(0, 0)));
    CHECK(r.step(r.size() - 1) == last + 3);
    CHECK(r.grad_norm(r.size() - 1, 1) == 5.0f);
    for (size_t i = 0; i + 1 < r.size(); ++i) CHECK(r.step(i) % 6 == 0);
    CHECK_FALSE(r.due(last + 6 + 3));
}
