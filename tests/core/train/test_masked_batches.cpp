// BERT's masked-token batches: the recipe's counts, its determinism and its special positions; the loss over the
// chosen rows only, its gradients against finite differences, and a tiny BERT that learns.
#include "../hf/hf_test_folders.h"
#include "../test_support.h"
#include "hf/open_model.h"
#include "train/data_parallel.h"
#include "train/masked_batches.h"
#include "train/token_file.h"
#include "train/trainer.h"
#include "train/window_batches.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

using namespace attnlab;
using namespace attnlab::test;

namespace {

// ids 0..4 special ([PAD] [UNK] [CLS] [SEP] [MASK]), 5..39 ordinary.
MaskTokens toy_tokens() { return MaskTokens{4, {0, 1, 2, 3, 4}, 40}; }

// 40 ids: [CLS] at 0, [SEP] at 20, [PAD] at 38 and 39, ordinary ids elsewhere (36 eligible).
std::vector<int> toy_row() {
    std::vector<int> ids(40);
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = 5 + static_cast<int>(i % 35);
    ids[0] = 2;
    ids[20] = 3;
    ids[38] = ids[39] = 0;
    return ids;
}

// hf_bert (vocab_size 50, max_position 16, with its MLM head) with the 43-token vocab.txt of
// tests/fixtures/tokenizers/bert ([PAD] [UNK] [CLS] [SEP] [MASK] at 0..4).
Model open_bert(const TempFolder& folder, bool with_vocab = true) {
    for (const char* name : {"config.json", "model.safetensors"})
        std::filesystem::copy(hf_fixture("hf_bert") + "/" + name, folder.file(name));
    if (with_vocab)
        std::filesystem::copy(std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/bert/vocab.txt",
                              folder.file("vocab.txt"));
    auto loaded = open_model(folder.path());
    if (!loaded) FAIL(loaded.error().message);
    return std::move(loaded->model);
}

const char* kBertText =
    "the cat sat . the cat sat ! a cat sat , the cat plays . the cat sat . cafe cats sat . "
    "the cat sat , a cat plays ! the cat sat . i sat . the cat sat . a cafe , the cat sat .";

TokenWindows bert_windows(const Model& model, int seq_len, int batch_size) {
    auto ids = encode_text_ids(kBertText, "text", model);
    REQUIRE(ids);
    auto windows = TokenWindows::make(ids->ids, seq_len, batch_size, std::nullopt);
    REQUIRE(windows);
    return std::move(*windows);
}

int64_t n_chosen(const std::vector<int>& targets) {
    return static_cast<int64_t>(targets.size()) - std::count(targets.begin(), targets.end(), -1);
}

}  // namespace

TEST_CASE("masking chooses 15% of the ordinary positions, never a special one, the same for the same draw",
          "[train][masked]") {
    const MaskTokens tokens = toy_tokens();
    const std::vector<int> ids = toy_row();
    const MaskedRow row = mask_row(ids, tokens, 7, 3, 1);
    CHECK(n_chosen(row.targets) == 5);  // ⌊(15·36 + 50) / 100⌋
    for (size_t i = 0; i < ids.size(); ++i) {
        INFO("position " << i);
        if (row.targets[i] == -1) {
            CHECK(row.input[i] == ids[i]);  // not chosen: as it was
        } else {
            CHECK(row.targets[i] == ids[i]);
            CHECK(ids[i] > 4);  // never [CLS], [SEP] or [PAD]
        }
    }
    const MaskedRow again = mask_row(ids, tokens, 7, 3, 1);
    CHECK((again.input == row.input && again.targets == row.targets));
    // Another batch, row or seed draws other positions.
    CHECK(mask_row(ids, tokens, 7, 4, 1).targets != row.targets);
    CHECK(mask_row(ids, tokens, 7, 3, 2).targets != row.targets);
    CHECK(mask_row(ids, tokens, 8, 3, 1).targets != row.targets);
    // One ordinary position still gets one target; none, none.
    CHECK(n_chosen(mask_row({2, 9, 3}, tokens, 1, 0, 0).targets) == 1);
    CHECK(n_chosen(mask_row({2, 3, 0, 4}, tokens, 1, 0, 0).targets) == 0);
}

TEST_CASE("of the chosen positions 80% become [MASK], 10% a random ordinary id, 10% stay", "[train][masked]") {
    const MaskTokens tokens = toy_tokens();
    const std::vector<int> ids = toy_row();
    int64_t chosen = 0, masked = 0, replaced = 0, kept = 0;
    for (int b = 0; b < 3000; ++b) {
        const MaskedRow row = mask_row(ids, tokens, 11, 0, b);
        for (size_t i = 0; i < ids.size(); ++i) {
            if (row.targets[i] == -1) continue;
            ++chosen;
            if (row.input[i] == tokens.mask_id) {
                ++masked;
            } else if (row.input[i] == ids[i]) {
                ++kept;  // includes a random draw of the id itself (1 in 35 of the 10%)
            } else {
                ++replaced;
                CHECK((row.input[i] > 4 && row.input[i] < 40));  // an ordinary id
            }
        }
    }
    REQUIRE(chosen == 3000 * 5);
    CHECK(static_cast<double>(masked) / chosen == Approx(0.8).margin(0.015));
    CHECK(static_cast<double>(replaced) / chosen == Approx(0.1 * 34 / 35).margin(0.01));
    CHECK(static_cast<double>(kept) / chosen == Approx(0.1 + 0.1 / 35).margin(0.01));
}

TEST_CASE("a masked batch: B windows of S ids as the source, T = 0, targets at the chosen positions",
          "[train][masked]") {
    std::vector<int> stream(200);
    for (size_t i = 0; i < stream.size(); ++i) stream[i] = 5 + static_cast<int>(i * 7 % 35);
    auto windows = TokenWindows::make(stream, 12, 3, std::nullopt);
    REQUIRE(windows);
    MaskedBatches batches(*windows, toy_tokens(), 5);
    CHECK(batches.trains() == Arch::encoder_only);
    for (int64_t k : {0, 1, 20}) {
        const Batch batch = batches.batch(k);
        const WindowBatch w = windows->batch(k);
        REQUIRE((batch.B == 3 && batch.S == 12 && batch.T == 0 && batch.pad_id == -1));
        CHECK(batch.tgt_in.empty());
        REQUIRE((batch.src.size() == 36 && batch.tgt_out.size() == 36));
        for (int b = 0; b < 3; ++b) {
            const std::vector<int> window(w.inputs.begin() + b * 12, w.inputs.begin() + (b + 1) * 12);
            const MaskedRow row = mask_row(window, toy_tokens(), 5, k, b);
            CHECK(std::equal(row.input.begin(), row.input.end(), batch.src.begin() + b * 12));
            CHECK(std::equal(row.targets.begin(), row.targets.end(), batch.tgt_out.begin() + b * 12));
            CHECK(n_chosen(row.targets) == 2);  // ⌊(15·12 + 50) / 100⌋
        }
        const Batch again = batches.batch(k);
        CHECK((again.src == batch.src && again.tgt_out == batch.tgt_out));
    }
}

TEST_CASE("masking needs an encoder-only model with an MLM head and a [MASK] token", "[train][masked]") {
    auto one_line = [](const Result<MaskTokens>& r) {
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find('\n') == std::string::npos);
        return r.error().message;
    };
    TempFolder folder;
    Model bert = open_bert(folder);
    auto tokens = mask_tokens(bert);
    REQUIRE(tokens);
    CHECK(tokens->mask_id == 4);
    CHECK(tokens->special == std::vector<int>{0, 1, 2, 3, 4});
    CHECK(tokens->n_tokens == 43);

    Model headless = bert;
    headless.config.output_head = OutputHead::none;
    CHECK_THAT(one_line(mask_tokens(headless)), Catch::Contains("no masked-language-model head"));

    TempFolder bare;
    CHECK_THAT(one_line(mask_tokens(open_bert(bare, false))), Catch::Contains("no tokenizer"));

    TempFolder no_mask;
    open_bert(no_mask);
    write_text(no_mask.file("vocab.txt"), "[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\ncat\n");
    auto reopened = open_model(no_mask.path());
    REQUIRE(reopened);
    CHECK_THAT(one_line(mask_tokens(reopened->model)), Catch::Contains("no [MASK] token"));

    auto translator = make_random_model("tiny", 1, std::nullopt, std::nullopt, TokenizerKind::character);
    REQUIRE(translator);
    CHECK_THAT(one_line(mask_tokens(*translator)), Catch::Contains("encoder-only"));
}

TEST_CASE("an encoder-only batch's loss is the cross-entropy of the chosen source rows only", "[train][masked]") {
    TempFolder folder;
    const Model bert = open_bert(folder);
    auto batches = MaskedBatches::make(bert, bert_windows(bert, 12, 3), 9);
    REQUIRE(batches);
    const Batch batch = (*batches)->batch(0);
    auto logits = batch_logits(bert.config, bert.weights, batch);
    REQUIRE(logits);
    REQUIRE(logits->dim(0) == int64_t{batch.B} * batch.S);  // (B·S, V)
    double sum = 0;
    int64_t n = 0;
    for (int64_t r = 0; r < logits->dim(0); ++r) {
        const int target = batch.tgt_out[static_cast<size_t>(r)];
        if (target == -1) continue;
        const auto row = logits->row(r).cast<double>();
        const double max = row.maxCoeff();
        sum += max + std::log((row.array() - max).exp().sum()) - row(target);
        ++n;
    }
    REQUIRE(n == 6);
    TrainOptions plain;
    plain.label_smoothing = 0.0f;
    auto result = loss_and_gradients(bert.config, bert.weights, batch, plain);
    REQUIRE(result);
    CHECK(result->n_tokens == n);
    CHECK(result->loss == Approx(sum / n).epsilon(1e-5));

    // Split across threads: the whole batch's loss and gradients.
    auto split = loss_and_gradients_parallel(bert.config, bert.weights, batch, plain, 3);
    REQUIRE(split);
    CHECK(split->n_tokens == n);
    CHECK(split->loss == Approx(result->loss).epsilon(1e-6));
    for (const auto& [name, g] : result->grads) {
        INFO(name);
        CHECK(max_abs_diff(split->grads.at(name), g) <= 1e-5f * (1.0f + g.matrix().cwiseAbs().maxCoeff()));
    }

    Batch wrong = batch;
    wrong.tgt_out.pop_back();
    auto refused = loss_and_gradients(bert.config, bert.weights, wrong, TrainOptions{});
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains("do not match its B and S"));
    Batch decoder_input = batch;
    decoder_input.T = 1;
    decoder_input.tgt_in.assign(3, 5);
    CHECK_FALSE(loss_and_gradients(bert.config, bert.weights, decoder_input, TrainOptions{}));
}

TEST_CASE("an encoder-only batch's gradients match finite differences", "[train][masked][grad]") {
    TempFolder folder;
    const Model bert = open_bert(folder);
    auto batches = MaskedBatches::make(bert, bert_windows(bert, 10, 2), 3);
    REQUIRE(batches);
    const Batch batch = (*batches)->batch(1);
    TrainOptions options;
    options.label_smoothing = 0.1f;
    options.dropout = 0.1f;  // fixed masks: a smooth function of the weights
    options.dropout_seed = 17;
    auto result = loss_and_gradients(bert.config, bert.weights, batch, options);
    REQUIRE(result);
    REQUIRE(result->grads.size() == bert.weights.all().size());
    auto loss_of = [&](const Weights& w) {
        auto r = loss_and_gradients(bert.config, w, batch, options);
        REQUIRE(r);
        return r->loss;
    };
    std::mt19937 rng(5);
    int checked_nonzero = 0;
    for (const auto& [name, grad] : result->grads) {
        Eigen::Index largest = 0;
        grad.matrix().cwiseAbs().reshaped<Eigen::RowMajor>().maxCoeff(&largest);
        const size_t random = std::uniform_int_distribution<size_t>(0, grad.data.size() - 1)(rng);
        for (size_t i : {static_cast<size_t>(largest), random}) {
            const float h = 3e-3f;
            Weights plus = bert.weights, minus = bert.weights;
            plus.set_value(name, static_cast<int64_t>(i), bert.weights.at(name).data[i] + h);
            minus.set_value(name, static_cast<int64_t>(i), bert.weights.at(name).data[i] - h);
            const double fd = (loss_of(plus) - loss_of(minus)) / (2.0 * h);
            const double analytic = grad.data[i];
            INFO(name << "[" << i << "]: analytic " << analytic << ", finite difference " << fd);
            CHECK(std::abs(fd - analytic) <= 2e-3 + 2e-2 * std::abs(analytic));
            checked_nonzero += std::abs(analytic) > 1e-3;
        }
    }
    CHECK(checked_nonzero > 10);
}

TEST_CASE("a tiny BERT trained on masked tokens of a text lowers its loss", "[train][masked]") {
    TempFolder folder;
    const Model bert = open_bert(folder);
    auto held = MaskedBatches::make(bert, bert_windows(bert, 12, 4), 21);
    REQUIRE(held);
    const Batch fixed = (*held)->batch(0);
    auto before = loss_and_gradients(bert.config, bert.weights, fixed, TrainOptions{});
    REQUIRE(before);

    auto batches = MaskedBatches::make(bert, bert_windows(bert, 12, 4), 21);
    REQUIRE(batches);
    TrainSettings settings;
    settings.steps = 60;
    settings.batch_size = 4;
    settings.threads = 1;
    settings.dropout = 0.0f;
    settings.label_smoothing = 0.0f;
    settings.optimizer.schedule = LrSchedule::constant;
    settings.optimizer.lr = 3e-3f;
    auto trainer = Trainer::create_on(bert, std::move(*batches), settings);
    REQUIRE(trainer);
    while (!(*trainer)->finished()) (*trainer)->train_step();
    CHECK_FALSE((*trainer)->attention_entropies().empty());
    auto after = loss_and_gradients((*trainer)->model().config, (*trainer)->model().weights, fixed, TrainOptions{});
    REQUIRE(after);
    INFO("loss before " << before->loss << ", after " << after->loss);
    CHECK(after->loss < 0.5 * before->loss);
}

TEST_CASE("a trainer takes the batches of its model's kind and names the kind to give", "[train][masked]") {
    TempFolder folder;
    const Model bert = open_bert(folder);
    TrainSettings settings;
    settings.steps = 1;
    settings.batch_size = 2;
    auto windows = std::make_unique<WindowBatches>(bert_windows(bert, 8, 2));
    auto refused = Trainer::create_on(bert, std::move(windows), settings);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message ==
          "this is an encoder-only model: train it on masked tokens, not on next-token sequences");

    ModelConfig decoder_only = small_config();
    decoder_only.arch = Arch::decoder_only;
    decoder_only.n_encoder_layers = 0;
    Model gpt{decoder_only, init_weights(decoder_only, 1), std::nullopt,
              std::nullopt, TokenizerKind::word,           std::nullopt,
              nullptr};
    std::vector<int> stream(50, 9);
    auto masked = std::make_unique<MaskedBatches>(*TokenWindows::make(stream, 8, 2, std::nullopt), toy_tokens(), 1);
    auto refused2 = Trainer::create_on(gpt, std::move(masked), settings);
    REQUIRE_FALSE(refused2);
    CHECK(refused2.error().message ==
          "this is a decoder-only model: train it on next-token sequences, not on masked tokens");

    // Windows longer than BERT's 16 positions: the first batch's check.
    auto long_rows = MaskedBatches::make(bert, bert_windows(bert, 20, 2), 1);
    REQUIRE(long_rows);
    auto too_long = Trainer::create_on(bert, std::move(*long_rows), settings);
    REQUIRE_FALSE(too_long);
    CHECK_THAT(too_long.error().message, Catch::Contains("longer than max_len 16"));
}
