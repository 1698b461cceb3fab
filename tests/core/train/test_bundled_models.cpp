// The trained models in assets/models: small enough to ship, as good as assets/models/README.md
// says on their held-out splits, the en-ko model's cross-attention aligns the words it translates,
// and its heads differ from each other on the tour's sentences.
#include "analysis/head_diversity.h"
#include "forward/step_path.h"
#include "io/model_file.h"
#include "stepper.h"
#include "teach/tour.h"
#include "train/evaluate.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <set>
#include <tuple>

using namespace attnlab;

namespace {

const std::string kModels = std::string(ATTNLAB_SOURCE_DIR) + "/assets/models/";

Model load(const std::string& name) {
    auto m = io::read_model(kModels + name);
    if (!m) FAIL(m.error().message);
    return std::move(*m);
}

}  // namespace

TEST_CASE("bundled models reach their held-out goals and fit in 2 MB", "[bundled]") {
    const std::pair<const char*, double> goals[] = {{"en-ko.safetensors", 0.95}, {"reverse.safetensors", 0.99}};
    for (const auto& [file, goal] : goals) {
        INFO(file);
        CHECK(std::filesystem::file_size(kModels + file) <= 2u * 1024 * 1024);
        const Model model = load(file);
        REQUIRE(model.training);
        auto task = make_task(model.training->task, model.training->seed);
        REQUIRE(task);
        auto scores = evaluate_heldout(model, **task, EvalOptions{});
        REQUIRE(scores);
        CHECK(scores->n_examples >= 300);
        CHECK(scores->exact_match >= goal);
    }
}

TEST_CASE("the en-ko model's last cross-attention looks at the English word it is translating", "[bundled]") {
    const Model model = load("en-ko.safetensors");
    auto src = encode_source_text(model, "i like red apples");
    auto tgt = encode_target_text(model, "나 는 빨간 사과 를 좋아해");
    REQUIRE(src);
    REQUIRE(tgt);
    auto stepper = Stepper::create(model.config, model.weights, ForwardInputs{src->ids, tgt->ids, {}, {}});
    REQUIRE(stepper);
    stepper->run_all();
    const std::string last =
        "decoder.layers." + std::to_string(model.config.n_decoder_layers - 1) + ".cross_attn.weights";
    const Tensor& w = *stepper->output(last);  // (H, T, S)
    // Row t of the decoder produces target word t + 1: the row that writes 사과 reads "apples".
    const std::pair<const char*, const char*> aligned[] = {
        {"나", "i"}, {"빨간", "red"}, {"사과", "apples"}, {"좋아해", "like"}};
    const std::vector<std::string> ko = {"<sos>", "나", "는", "빨간", "사과", "를", "좋아해"};
    const std::vector<std::string> en = {"i", "like", "red", "apples", "<eos>"};
    for (const auto& [korean, english] : aligned) {
        INFO(korean << " <-> " << english);
        const auto row = std::find(ko.begin(), ko.end(), korean) - ko.begin() - 1;  // the row that produces it
        RowVec mean = RowVec::Zero(w.dim(2));                                       // (S): averaged over heads
        for (int64_t h = 0; h < w.dim(0); ++h) mean += w.slice(h).row(row);
        Eigen::Index best = 0;
        mean.maxCoeff(&best);
        CHECK(en[static_cast<size_t>(best)] == english);
    }
}

TEST_CASE("the en-ko model's heads differ within every layer on the tour's sentences", "[bundled]") {
    // Chapter 3 says each head learns its own pattern. On every sentence pair the tour (and the app's
    // start, app/model/default_model.h) shows with this model, in every attention of every layer: no two
    // heads within 0.1 mean |Δweights| of each other, and no head with more than 0.9 of its weight on
    // one key over every query (a "sink" head, such as every query looking at <eos>).
    const Model model = load("en-ko.safetensors");
    auto tour = load_tour(std::string(ATTNLAB_SOURCE_DIR) + "/assets");
    REQUIRE(tour);
    // source, target, and the <pad> tokens the chapter appends to each (the masks chapter pads both)
    std::set<std::tuple<std::string, std::string, int, int>> sentences = {
        {"i like red apples", "나 는 빨간 사과 를 좋아해", 0, 0}};
    for (const TourChapter& c : *tour)
        if (c.model == "en-ko.safetensors" && !c.tgt.empty())
            sentences.insert({c.src, c.tgt, c.src_padding, c.tgt_padding});
    const int64_t attentions = 2 * model.config.n_decoder_layers + model.config.n_encoder_layers;
    for (const auto& [source, target, src_pads, tgt_pads] : sentences) {
        auto src = encode_source_text(model, source);
        auto tgt = encode_target_text(model, target);
        REQUIRE(src);
        REQUIRE(tgt);
        src->ids.insert(src->ids.end(), static_cast<size_t>(src_pads), model.config.pad_id);
        tgt->ids.insert(tgt->ids.end(), static_cast<size_t>(tgt_pads), model.config.pad_id);
        auto stepper = Stepper::create(model.config, model.weights, ForwardInputs{src->ids, tgt->ids, {}, {}});
        REQUIRE(stepper);
        stepper->run_all();
        const HeadDiversitySummary summary = summarize_head_diversity(*stepper);
        REQUIRE(static_cast<int64_t>(summary.layers.size()) == attentions);
        for (const HeadDiversitySummary::Layer& layer : summary.layers)
            for (size_t h = 0; h < layer.heads.size(); ++h) {
                const HeadDiversity& d = layer.heads[h];
                INFO(source << " -> " << target << " (+" << src_pads << ", +" << tgt_pads << " <pad>): "
                            << attention_name(layer.attention) << " head " << h << ", nearest head " << d.nearest_head);
                CHECK(d.nearest_difference >= 0.1f);
                CHECK(d.top_key_share <= 0.9f);
            }
    }
}
