// (source, target) pairs from a TSV text through the model's own tokenizers: the padded batches (ours as make_batch
// pads them, Marian's with its decoder start and </s>), one-line errors naming file and line, and a tiny Marian
// that learns four pairs.
#include "../hf/hf_test_folders.h"
#include "../test_support.h"
#include "hf/open_model.h"
#include "train/pair_batches.h"
#include "train/trainer.h"
#include "train/transformer_grad.h"
#include "train/window_batches.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace attnlab;
using namespace attnlab::test;

namespace {

Model word_model() {
    auto vocab = Vocab::from_tokens({"<pad>", "<sos>", "<eos>", "<unk>", "the", "cat", "sat", "a", "dog", "ran", "le",
                                     "chat", "chien", "court", "est", "assis"});
    REQUIRE(vocab);
    auto model = make_random_model("tiny", 1, *vocab, *vocab, TokenizerKind::word);
    REQUIRE(model);
    return std::move(*model);
}

Model marian() {
    auto loaded = open_model(hf_fixture("hf_marian"));
    if (!loaded) FAIL(loaded.error().message);
    return std::move(loaded->model);
}

const char* kFourPairs =
    "the cat sat\tle chat est assis\na dog ran\tle chien court\r\n\nthe dog\tle chien\n"
    "a cat\tle chat\n";

std::string error_of(const Model& model, std::string_view tsv) {
    auto made = PairBatches::make(model, tsv, "pairs.tsv", 2);
    REQUIRE_FALSE(made);
    CHECK(made.error().message.find('\n') == std::string::npos);
    return made.error().message;
}

}  // namespace

TEST_CASE("pairs of our own family are batched as make_batch batches them, k·B … k·B + B − 1 round the file",
          "[train][pairs]") {
    const Model model = word_model();
    auto batches = PairBatches::make(model, kFourPairs, "pairs.tsv", 3);
    REQUIRE(batches);
    CHECK((*batches)->trains() == Arch::encoder_decoder);
    REQUIRE((*batches)->n_pairs() == 4);
    const std::vector<TokenPair> bare{
        {{4, 5, 6}, {10, 11, 14, 15}}, {{7, 8, 9}, {10, 12, 13}}, {{4, 8}, {10, 12}}, {{7, 5}, {10, 11}}};
    for (int64_t k : {0, 1, 5}) {
        std::vector<TokenPair> want;
        for (int b = 0; b < 3; ++b) want.push_back(bare[static_cast<size_t>((k * 3 + b) % 4)]);
        const Batch expected = make_batch(want, model.config);
        const Batch got = (*batches)->batch(k);
        INFO("batch " << k);
        CHECK((got.B == expected.B && got.S == expected.S && got.T == expected.T && got.pad_id == expected.pad_id));
        CHECK(got.src == expected.src);
        CHECK(got.tgt_in == expected.tgt_in);
        CHECK(got.tgt_out == expected.tgt_out);
    }
}

TEST_CASE("Marian's pairs: the source ends with </s>, the decoder starts at <pad> and its targets end with </s>",
          "[train][pairs]") {
    const Model model = marian();
    const ModelConfig& c = model.config;
    auto batches = PairBatches::make(model, kFourPairs, "pairs.tsv", 4);
    REQUIRE(batches);
    for (const EncodedPair& p : (*batches)->pairs()) {
        CHECK(p.src.back() == c.eos_id);
        CHECK(p.tgt_in.front() == c.sos_id);
        CHECK(c.sos_id == c.pad_id);
        CHECK(std::count(p.tgt_in.begin(), p.tgt_in.end(), c.eos_id) == 0);
    }
    const Batch batch = (*batches)->batch(0);
    CHECK(batch.pad_id == c.pad_id);
    for (int b = 0; b < batch.B; ++b) {
        const EncodedPair& p = (*batches)->pairs()[static_cast<size_t>(b)];
        const int n = static_cast<int>(p.tgt_in.size());
        const auto out = batch.tgt_out.begin() + b * batch.T;
        CHECK(std::equal(p.tgt_in.begin() + 1, p.tgt_in.end(), out));  // the decoder input shifted left …
        CHECK(out[n - 1] == c.eos_id);                                 // … ending with </s>
        CHECK(std::all_of(out + n, out + batch.T, [&](int id) { return id == c.pad_id; }));
    }
    auto result = loss_and_gradients(c, model.weights, batch, TrainOptions{});
    REQUIRE(result);
    CHECK(result->n_tokens == batch.n_target_tokens());
}

TEST_CASE("a bad pairs file is one line naming the file and line", "[train][pairs]") {
    const Model model = word_model();
    CHECK(error_of(model, "the cat\tle chat\nthe cat sat\n") ==
          "pairs.tsv:2: no tab between the source and the target (source<TAB>target)");
    CHECK(error_of(model, "the cat\tle\tchat\n") == "pairs.tsv:1: more than one tab (a line is source<TAB>target)");
    CHECK(error_of(model, "the cat\tle chat\n\n \tle chat\n") == "pairs.tsv:3: the source is empty");
    CHECK(error_of(model, "the cat\t  \n") == "pairs.tsv:1: the target is empty");
    std::string long_line = "the cat\tle";
    for (int i = 0; i < 64; ++i) long_line += " chat";
    CHECK(error_of(model, long_line) == "pairs.tsv:1: the target is 66 tokens, longer than the model's max_len 64");
    CHECK(error_of(model, "\n\r\n") == "pairs.tsv: no (source<TAB>target) pairs");
    CHECK_THAT(error_of(model, "the cat\tle \xff chat\n"), Catch::StartsWith("pairs.tsv:1: target text:"));
    CHECK_THAT(error_of(marian(), std::string(70, 'a') + " b\tc\n"), Catch::StartsWith("pairs.tsv:1: the source is"));

    ModelConfig decoder_only = small_config();
    decoder_only.arch = Arch::decoder_only;
    decoder_only.n_encoder_layers = 0;
    const Model gpt{decoder_only, init_weights(decoder_only, 1), std::nullopt,
                    std::nullopt, TokenizerKind::word,           std::nullopt,
                    nullptr};
    CHECK(error_of(gpt, kFourPairs) == "(source, target) pairs train an encoder-decoder; this is a decoder_only model");
    auto missing = PairBatches::read("/nonexistent/pairs.tsv", model, 2);
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error().message, Catch::Contains("/nonexistent/pairs.tsv"));
}

TEST_CASE("a tiny Marian trained on four pairs lowers its loss", "[train][pairs]") {
    const Model model = marian();
    auto held = PairBatches::make(model, kFourPairs, "pairs.tsv", 4);
    REQUIRE(held);
    const Batch fixed = (*held)->batch(0);
    auto before = loss_and_gradients(model.config, model.weights, fixed, TrainOptions{});
    REQUIRE(before);

    auto batches = PairBatches::make(model, kFourPairs, "pairs.tsv", 4);
    REQUIRE(batches);
    TrainSettings settings;
    settings.steps = 40;
    settings.batch_size = 4;
    settings.threads = 2;
    settings.dropout = 0.0f;
    settings.label_smoothing = 0.0f;
    settings.optimizer.schedule = LrSchedule::constant;
    settings.optimizer.lr = 1e-2f;
    auto trainer = Trainer::create_on(model, std::move(*batches), settings);
    REQUIRE(trainer);
    while (!(*trainer)->finished()) (*trainer)->train_step();
    CHECK_FALSE((*trainer)->attention_entropies().empty());
    auto after = loss_and_gradients((*trainer)->model().config, (*trainer)->model().weights, fixed, TrainOptions{});
    REQUIRE(after);
    INFO("loss before " << before->loss << ", after " << after->loss);
    CHECK(after->loss < 0.5 * before->loss);
}

TEST_CASE("an encoder-decoder refuses next-token windows and names pairs", "[train][pairs]") {
    const Model model = marian();
    TrainSettings settings;
    settings.steps = 1;
    auto windows = TokenWindows::make(std::vector<int>(40, 5), 8, 2, std::nullopt);
    REQUIRE(windows);
    auto refused = Trainer::create_on(model, std::make_unique<WindowBatches>(std::move(*windows)), settings);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message ==
          "this is an encoder-decoder: train it on (source, target) pairs, not on next-token sequences");
}
