// Training the model the views show (TrainTarget::opened_model): a GPT-2 folder on a text file through its own
// tokenizer, a BERT folder on a file of ids (masked tokens), each run followed by the views and its probes; a
// Hugging Face model saved as a folder that reopens with the trained weights; and the one-line errors.
#include "../core/hf/hf_test_folders.h"
#include "hf/open_model.h"
#include "model_display_name.h"
#include "training.h"
#include "training_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

// hf_bert (vocab_size 50, max_position 16, with its MLM head) with the 43-token vocab.txt of
// tests/fixtures/tokenizers/bert, which has the [MASK] token masked batches need.
void write_bert_with_vocab(const attnlab::test::TempFolder& folder) {
    for (const char* name : {"config.json", "model.safetensors"})
        std::filesystem::copy(attnlab::test::hf_fixture("hf_bert") + "/" + name, folder.file(name));
    std::filesystem::copy(ATTNLAB_SOURCE_DIR "/tests/fixtures/tokenizers/bert/vocab.txt", folder.file("vocab.txt"));
}

TrainForm opened_form(const std::string& data_path, DataFileKind kind) {
    TrainForm form;
    form.target = TrainTarget::opened_model;
    form.data_path = data_path;
    form.data_kind = kind;
    form.seq_len = 6;
    form.batch_size = 2;
    form.steps = 4;
    form.threads = 1;
    form.learning_rate = 1e-2f;
    return form;
}

// Pumps the run between frames to its end.
void run_to_end(Training& training, Session& session) {
    for (int frame = 0; frame < 100000 && training.active(); ++frame) {
        training.pump(std::chrono::milliseconds(50));
        training.sync(session);
    }
    training.sync(session);
}

}  // namespace

TEST_CASE("a GPT-2 folder trains on a text file through its tokenizer; the views follow; it saves as a folder",
          "[training][opened]") {
    attnlab::test::TempFolder model_folder, out_root;
    attnlab::test::write_gpt2_with_tokenizer(model_folder);
    const std::string text = out_root.file("notes.txt");
    attnlab::test::write_text(text, "the cat sat on the mat. the dog sat on the log. the cat saw the dog on the mat.\n");
    auto opened = Session::from_file(model_folder.path(), "", "", 1);
    REQUIRE(opened);
    Session session = std::move(*opened);
    const Weights before = session.model().weights;

    Training training(WorkMode::between_frames);
    Result<TrainJob> job = opened_model_job(opened_form(text, DataFileKind::text), session, training);
    REQUIRE(job);
    REQUIRE(job->opened->hf_folder == model_folder.path());
    job->snapshot_seconds = 0.0;
    job->probe_every = 1;
    REQUIRE(training.start(session, *job));
    run_to_end(training, session);

    const TrainProgress& p = training.progress();
    INFO(p.error);
    REQUIRE(p.state == TrainState::finished);
    CHECK(p.step == 4);
    CHECK(p.data.tokens > 20);  // the text through the 293-token BPE
    CHECK(p.data.windows == (p.data.tokens - 1) / 6);
    CHECK(p.data.seq_len == 6);
    REQUIRE(p.train_loss.size() == 4);
    for (size_t i = 0; i < p.train_loss.size(); ++i) CHECK(std::isfinite(p.train_loss.mean(i)));
    CHECK(p.train_loss.mean(3) < p.train_loss.mean(0));  // four steps of Adam at 1e-2 on a few windows

    // The probes: the embeddings, each layer and the head each have a gradient norm; each layer's heads an entropy.
    const ModelConfig& c = session.model().config;
    REQUIRE(p.probes.groups().size() == static_cast<size_t>(c.n_decoder_layers) + 2);
    REQUIRE(p.probes.size() == 5);  // steps 0 … 4
    for (size_t g = 0; g < p.probes.groups().size(); ++g) CHECK(p.probes.grad_norm(4, g) > 0.0f);
    REQUIRE(p.probes.sites().size() == static_cast<size_t>(c.n_decoder_layers));
    for (int h = 0; h < c.n_heads; ++h) CHECK(p.probes.entropy(4, 0, h) > 0.0f);

    // The views show the last snapshot, under the model's own name.
    REQUIRE(training.linked(session));
    CHECK(training.shown_step() == 4);
    CHECK(session.model_name() == model_display_name(model_folder.path()) + " · trained · step 4");
    CHECK_FALSE(gui::test::same_values(session.model().weights, before));

    // Saved as a Hugging Face folder, it reopens with the trained weights.
    const std::string saved = out_root.file("gpt2-trained");
    REQUIRE(training.save(saved));
    auto reopened = open_model(saved);
    REQUIRE(reopened);
    CHECK(gui::test::same_values(reopened->model.weights, training.snapshot().weights ? *training.snapshot().weights
                                                                                 : Weights{}));
    CHECK(attnlab::test::read_text(saved + "/merges.txt") == attnlab::test::read_text(model_folder.file("merges.txt")));
}

TEST_CASE("a BERT folder trains on a file of ids as masked tokens", "[training][opened]") {
    attnlab::test::TempFolder root, bert;
    write_bert_with_vocab(bert);
    const std::string ids = root.file("ids.txt");
    std::string text;
    for (int i = 0; i < 60; ++i) text += std::to_string(5 + (i * 7) % 38) + " ";  // ordinary tokens of its 43
    attnlab::test::write_text(ids, text);
    auto opened = Session::from_file(bert.path(), "", "", 1);
    REQUIRE(opened);
    Session session = std::move(*opened);

    Training training(WorkMode::between_frames);
    Result<TrainJob> job = opened_model_job(opened_form(ids, DataFileKind::token_ids), session, training);
    REQUIRE(job);
    job->snapshot_seconds = 0.0;
    REQUIRE(training.start(session, *job));
    run_to_end(training, session);
    const TrainProgress& p = training.progress();
    INFO(p.error);
    REQUIRE(p.state == TrainState::finished);
    CHECK(describe(p.data) == "60 tokens: 9 windows of 6 + 1");
    REQUIRE(p.train_loss.size() == 4);
    CHECK(std::isfinite(p.train_loss.mean(0)));
    CHECK(p.probes.groups().size() == static_cast<size_t>(session.model().config.n_encoder_layers) + 2);
}

TEST_CASE("training the opened model: each mistake is one line, and the run fails without touching the views",
          "[training][opened]") {
    attnlab::test::TempFolder root, bert;
    write_bert_with_vocab(bert);
    auto opened = Session::from_file(bert.path(), "", "", 1);
    REQUIRE(opened);
    Session session = std::move(*opened);
    const std::string name = session.model_name();
    Training training(WorkMode::between_frames);

    Result<TrainJob> none = opened_model_job(opened_form("", DataFileKind::token_ids), session, training);
    REQUIRE_FALSE(none);
    CHECK(none.error().message == "choose a file to train on");

    const std::string ids = root.file("ids.txt");
    attnlab::test::write_text(ids, "1 2 3 99999\n");
    Result<TrainJob> job = opened_model_job(opened_form(ids, DataFileKind::token_ids), session, training);
    REQUIRE(job);
    const Status started = training.start(session, *job);
    REQUIRE_FALSE(started);
    CHECK(started.error().message.find("99999") != std::string::npos);
    CHECK(started.error().message.find('\n') == std::string::npos);
    CHECK(training.progress().state == TrainState::failed);
    CHECK(session.model_name() == name);

    Result<TrainJob> missing =
        opened_model_job(opened_form(root.file("no-such.txt"), DataFileKind::text), session, training);
    REQUIRE(missing);
    const Status unread = training.start(session, *missing);
    REQUIRE_FALSE(unread);
    CHECK(unread.error().message.find("no-such.txt") != std::string::npos);
}
