// The checkpoint player on the bundled induction model and its history: the history beside the model is found
// and read, a move swaps a checkpoint's weights into the session (so the attention the views draw changes: the
// induction stripe is faint at step 0 and bright at the end), Play walks the checkpoints one per tick of a clock of
// the test's own and stops after the last, and a bad or mismatched history is a one-line error.
#include "checkpoint_player.h"

#include "session_support.h"
#include "train/training_history_file.h"

#include <unistd.h>
#include <filesystem>
#include <fstream>

using namespace attnlab;
using namespace attnlab::gui;
namespace fs = std::filesystem;

namespace {

const std::string kModels = ATTNLAB_SOURCE_DIR "/assets/models";
const std::string kInduction = kModels + "/induction.safetensors";
constexpr int kCopy = 6;  // the prompt: 6 distinct tokens, then the same 6 again
const char* kPrompt = "t4 t17 t9 t30 t22 t11 t4 t17 t9 t30 t22 t11";

Session induction_session() {
    auto s = Session::from_file(kInduction, "", kPrompt, 1);
    if (!s) FAIL(s.error().message);
    return std::move(*s);
}

// The best head of layer 1's mean weight on the induction stripe: from the second copy's i-th token to the key just
// after the first copy's i-th, as the attention view draws it (weights: (H, T, T)).
float induction_stripe(Session& s) {
    s.run_to(s.stepper().size());
    const Tensor* w = s.stepper().output(
        StepId::attention_at({AttentionUse::decoder_self, 1}, AttentionStage::weights));  // (H, T, T)
    REQUIRE(w);
    const int64_t H = w->dim(0), T = w->dim(1), p0 = T - 2 * kCopy;
    REQUIRE(p0 >= 0);
    float best = 0.0f;
    for (int64_t h = 0; h < H; ++h) {
        float sum = 0.0f;
        for (int64_t i = 0; i + 1 < kCopy; ++i) {
            const int64_t q = p0 + kCopy + i, k = p0 + i + 1;
            sum += w->data[static_cast<size_t>((h * T + q) * T + k)];
        }
        best = std::max(best, sum / static_cast<float>(kCopy - 1));
    }
    return best;
}

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("attnlab_checkpoints_" + std::to_string(::getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("a history is the model file's name with .history before .safetensors") {
    CHECK(history_path_beside("a/induction.safetensors") == "a/induction.history.safetensors");
    CHECK(history_path_beside("a/induction.history.safetensors").empty());  // a history has none of its own
    CHECK(history_path_beside("hf_gpt2/").empty());
    CHECK(history_path_beside("model.bin").empty());
}

TEST_CASE("the bundled induction model's history is read beside it, and a move swaps its weights in") {
    Session s = induction_session();
    CheckpointPlayer player;
    CHECK(player.follow(s));
    INFO(player.error());
    REQUIRE(player.has_history());
    CHECK(player.error().empty());
    CHECK(player.history_path() == kModels + "/induction.history.safetensors");
    const TrainingHistory& h = player.history();
    REQUIRE(h.checkpoints.size() == 16);
    CHECK(h.checkpoints.front().step == 0);
    CHECK(player.selected() == 15);  // the model file is the run's end
    CHECK_FALSE(player.shown());
    CHECK_FALSE(player.follow(s));  // the same model: nothing to read again

    // The record the plots draw: point i is checkpoint i; the phase change shows in it.
    const InductionRecord& r = player.record();
    REQUIRE(r.size() == 16);
    CHECK(r.n_layers() == 2);
    CHECK(r.n_heads() == 2);
    for (size_t i = 0; i < r.size(); ++i) CHECK(r.step(i) == h.checkpoints[i].step);
    CHECK(r.second_copy_loss(15) < 0.2f * r.first_copy_loss(15));
    CHECK(r.second_copy_loss(0) == Approx(r.first_copy_loss(0)).epsilon(0.05));
    const ScoredHead best = best_head(r, 15, HeadScoreKind::induction);
    CHECK(best.layer == 1);
    CHECK(r.score(15, best.layer, best.head, HeadScoreKind::induction) > 0.5f);
    CHECK(r.score(0, best.layer, best.head, HeadScoreKind::induction) < 0.2f);
    CHECK(r.score(15, 0, 1, HeadScoreKind::previous_token) ==
          Approx(h.checkpoints[15].heads[1].previous_token));  // layer-major, as the history keeps them

    const float trained = induction_stripe(s);
    const std::string name = s.model_name();
    REQUIRE(player.show(s, 0));
    CHECK(player.selected() == 0);
    CHECK(player.shown());
    CHECK(s.model_name() == name);
    const float untrained = induction_stripe(s);
    CHECK(untrained < 0.3f);    // step 0 spreads its attention
    CHECK(trained > 0.5f);      // the induction head copies
    CHECK(player.show(s, 99));  // clamped to the last
    CHECK(player.selected() == 15);
    CHECK(induction_stripe(s) == Approx(trained));
    CHECK_FALSE(player.follow(s));  // set_weights is no new model: the history stays
}

TEST_CASE("Play walks the checkpoints one per tick and stops after the last") {
    Session s = induction_session();
    CheckpointPlayer player;
    player.follow(s);
    REQUIRE(player.has_history());
    const double tick = CheckpointPlayer::kSecondsPerCheckpoint;
    player.play(100.0);  // on the last: from the first again
    CHECK(player.playing());
    CHECK(player.advance(s, 100.0));
    CHECK(player.selected() == 0);
    CHECK_FALSE(player.advance(s, 100.0 + 0.5 * tick));  // not yet
    CHECK(player.selected() == 0);
    double now = 100.0;
    for (int i = 1; i < 16; ++i) {
        now += tick;
        CHECK(player.advance(s, now));
        CHECK(player.selected() == i);
    }
    CHECK_FALSE(player.playing());
    CHECK_FALSE(player.advance(s, now + 10.0 * tick));
    CHECK(player.selected() == 15);

    player.show(s, 3);
    player.play(0.0);  // from where the slider is
    CHECK(player.advance(s, 0.0));
    CHECK(player.selected() == 4);
    player.pause();
    CHECK_FALSE(player.advance(s, 5.0));
    CHECK(player.selected() == 4);
}

TEST_CASE("another model drops the history; a model without one has none and no error") {
    Session s = induction_session();
    CheckpointPlayer player;
    player.follow(s);
    REQUIRE(player.has_history());
    REQUIRE(s.open_model_file(kModels + "/reverse.safetensors"));
    CHECK(player.follow(s));
    CHECK_FALSE(player.has_history());
    CHECK(player.error().empty());
    CHECK(player.selected() == -1);
    CHECK_FALSE(player.show(s, 0));
}

TEST_CASE("a broken or mismatched history beside a model is a one-line error") {
    TempDir dir;
    const std::string model = (dir.path / "m.safetensors").string();
    const std::string history = (dir.path / "m.history.safetensors").string();
    Session s = induction_session();
    CheckpointPlayer player;

    SECTION("not a safetensors file") {
        fs::copy_file(kInduction, model);
        std::ofstream(history) << "not a history";
        REQUIRE(s.open_model_file(model));
        CHECK(player.follow(s));
        CHECK_FALSE(player.has_history());
        CHECK(player.error().find(history) == 0);
    }
    SECTION("a model file where the history should be") {
        fs::copy_file(kInduction, model);
        fs::copy_file(kInduction, history);
        REQUIRE(s.open_model_file(model));
        player.follow(s);
        CHECK_FALSE(player.has_history());
        CHECK_FALSE(player.error().empty());
    }
    SECTION("another model's history") {
        fs::copy_file(kModels + "/reverse.safetensors", model);
        fs::copy_file(kModels + "/induction.history.safetensors", history);
        REQUIRE(s.open_model_file(model));
        player.follow(s);
        CHECK_FALSE(player.has_history());
        CHECK(player.error() == history + ": the history's model is not the one opened (its config differs)");
    }
    CHECK(player.error().find('\n') == std::string::npos);
    CHECK(player.selected() == -1);
}
