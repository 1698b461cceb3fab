// What differs from the model as loaded (app/model/model_changes): each kind is listed, undone by
// its session command, and nothing is listed for a model as it was loaded, trained or saved; and
// when starting a training run asks before it replaces the model.
#include "model_changes.h"

#include "launch_options.h"
#include "session.h"
#include "session_support.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace attnlab;
using namespace attnlab::gui;

using namespace attnlab::gui::test;

namespace {

// The same model as if opened from a file.
Session file_session() {
    const Session r = english_korean();
    auto s = Session::from_model(r.model(), "en-ko.safetensors", "i like red apples", "나 는 사과 를");
    if (!s) FAIL(s.error().message);
    return std::move(*s);
}

std::vector<ChangeKind> kinds(const Session& s) {
    std::vector<ChangeKind> out;
    for (const ModelChange& c : model_changes(s)) out.push_back(c.kind);
    return out;
}

}  // namespace

TEST_CASE("a fresh session differs in nothing from its model", "[changes]") {
    CHECK(model_changes(english_korean()).empty());
    CHECK(model_changes(file_session()).empty());
}

TEST_CASE("switched-off heads are listed and all switched back on by one undo", "[changes]") {
    Session s = file_session();
    REQUIRE(s.toggle_head({AttentionUse::encoder_self, 0}, 1));
    REQUIRE(s.toggle_head({AttentionUse::cross, 1}, 3));
    const auto changes = model_changes(s);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].kind == ChangeKind::heads_off);
    CHECK(changes[0].count == 2);
    const Tensor before_undo = *s.stepper().output("decoder.layers.1.cross_attn.context");
    CHECK(before_undo.slice(3).isZero(0.0f));
    REQUIRE(undo_change(s, changes[0]));
    CHECK(s.stepper().inputs().ablated_heads.empty());
    CHECK_FALSE(s.stepper().output("decoder.layers.1.cross_attn.context")->slice(3).isZero(0.0f));
    CHECK(model_changes(s).empty());
}

TEST_CASE("flipped mask cells are counted against the mask the ids make, and reset by one undo", "[changes]") {
    Session s = file_session();
    REQUIRE(s.toggle_mask_cell(AttentionUse::encoder_self, 1, 2));
    REQUIRE(s.toggle_mask_cell(AttentionUse::decoder_self, 0, 2));  // a future cell, allowed now
    REQUIRE(s.toggle_mask_cell(AttentionUse::cross, 0, 1));
    auto changes = model_changes(s);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].kind == ChangeKind::mask_cells);
    CHECK(changes[0].count == 3);
    REQUIRE(s.toggle_mask_cell(AttentionUse::cross, 0, 1));  // flipped back: the same as the ids make it
    changes = model_changes(s);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].count == 2);
    REQUIRE(undo_change(s, changes[0]));
    CHECK(s.stepper().inputs().mask_overrides.empty());
    CHECK(s.stepper().output("masks.decoder_self")->matrix()(0, 2) == 0.0f);
    CHECK(model_changes(s).empty());
}

TEST_CASE("edited weights are counted by value and restored as loaded", "[changes]") {
    Session s = file_session();
    const Tensor logits = *s.stepper().output("logits");
    const std::string name = "encoder.layers.0.linear1.weight";
    const float loaded = s.model().weights.at(name).data[7];
    REQUIRE(s.set_weight(name, 7, loaded + 1.0f));
    REQUIRE(s.set_weight(name, 9, 3.0f));
    REQUIRE(s.set_weight("decoder.layers.1.linear2.bias", 0, 0.5f));
    auto changes = model_changes(s);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].kind == ChangeKind::weights);
    CHECK(changes[0].tensors == 2);
    CHECK(changes[0].count == 3);
    CHECK(s.stepper().output("logits")->data != logits.data);
    REQUIRE(undo_change(s, changes[0]));
    CHECK(s.stepper().weights().shared(name) == s.model().weights.shared(name));
    CHECK(s.stepper().output("logits")->data == logits.data);
    CHECK(model_changes(s).empty());

    REQUIRE(s.set_weight(name, 7, loaded));  // a new tensor with the loaded numbers: nothing differs
    CHECK(model_changes(s).empty());
}

TEST_CASE("each switch that differs from the loaded config is listed and undone on its own", "[changes]") {
    Session s = file_session();
    const Weights loaded = s.model().weights;
    ModelConfig c = s.stepper().config();
    c.norm_first = true;  // pre-LN on post-LN-trained weights
    c.final_norm = false;
    c.positional = Positional::learned;
    REQUIRE(s.set_config(c));
    std::vector<ModelChange> changes = model_changes(s);
    CHECK(kinds(s) == std::vector<ChangeKind>{ChangeKind::config, ChangeKind::config, ChangeKind::config});
    REQUIRE(changes.size() == 3);
    CHECK(changes[0].which == ConfigSwitch::layer_norm);
    CHECK(changes[1].which == ConfigSwitch::positional);
    CHECK(changes[2].which == ConfigSwitch::final_norm);
    CHECK_FALSE(s.stepper().weights().find("encoder.norm.weight"));

    REQUIRE(undo_change(s, changes[2]));  // the final norm comes back with its loaded numbers, not as identity
    CHECK(s.stepper().config().final_norm);
    CHECK(s.stepper().weights().shared("encoder.norm.weight") == loaded.shared("encoder.norm.weight"));
    CHECK(s.stepper().config().norm_first);
    changes = model_changes(s);
    REQUIRE(changes.size() == 2);
    CHECK(changes[0].which == ConfigSwitch::layer_norm);
    REQUIRE(undo_change(s, changes[0]));
    CHECK_FALSE(s.stepper().config().norm_first);
    REQUIRE(model_changes(s).size() == 1);

    REQUIRE(s.restore_config());
    CHECK(s.stepper().config() == s.model().config);
    CHECK_FALSE(s.stepper().weights().find("pos_embed.weight"));
    CHECK(model_changes(s).empty());
}

TEST_CASE("a training snapshot and a save become the model as loaded", "[changes]") {
    Session s = english_korean();
    REQUIRE(s.set_weights(init_weights(s.stepper().config(), 99), "trained · step 10"));
    CHECK(model_changes(s).empty());  // the run's weights are not the user's edits

    REQUIRE(s.set_weight("encoder.layers.0.linear1.weight", 0, 5.0f));
    ModelConfig c = s.stepper().config();
    c.activation = Activation::gelu;
    REQUIRE(s.set_config(c));
    REQUIRE(s.toggle_head({AttentionUse::encoder_self, 0}, 0));
    CHECK(kinds(s) == std::vector<ChangeKind>{ChangeKind::heads_off, ChangeKind::weights, ChangeKind::config});
    const std::string path = (std::filesystem::temp_directory_path() / "attnlab-test-changes.safetensors").string();
    REQUIRE(s.save_model_file(path));
    CHECK(kinds(s) == std::vector<ChangeKind>{ChangeKind::heads_off});  // a file keeps no switched-off heads
    CHECK(s.origin() == ModelOrigin::file);
    std::filesystem::remove(path);
}

TEST_CASE("starting training asks before it replaces an opened, trained or changed model", "[changes][training]") {
    Session random = english_korean();
    CHECK(random.origin() == ModelOrigin::random);
    CHECK_FALSE(replacing_model_question(random).ask);
    REQUIRE(random.toggle_head({AttentionUse::encoder_self, 0}, 0));
    CHECK(replacing_model_question(random).ask);
    CHECK_FALSE(replacing_model_question(random).unsaved);  // saving would not keep a switched-off head
    REQUIRE(random.set_weight("decoder.layers.0.linear1.bias", 0, 2.0f));
    CHECK(replacing_model_question(random).unsaved);

    Session file = file_session();
    CHECK(file.origin() == ModelOrigin::file);
    CHECK(replacing_model_question(file).ask);
    CHECK_FALSE(replacing_model_question(file).unsaved);
    ModelConfig c = file.stepper().config();
    c.norm_first = true;
    REQUIRE(file.set_config(c));
    CHECK(replacing_model_question(file).unsaved);

    Session trained = english_korean();
    REQUIRE(trained.adopt_model(trained.model(), "trained copy · step 200", "i like red apples", ""));
    CHECK(trained.origin() == ModelOrigin::training);
    CHECK(replacing_model_question(trained).ask);
    CHECK(replacing_model_question(trained).unsaved);
    REQUIRE(trained.new_random_model(RandomModelSpec{}));
    CHECK(trained.origin() == ModelOrigin::random);
    CHECK_FALSE(replacing_model_question(trained).ask);
}

TEST_CASE("undo all puts back the model as loaded", "[changes]") {
    Session s = file_session();
    const Tensor logits = *s.stepper().output("logits");
    REQUIRE(s.toggle_head({AttentionUse::decoder_self, 1}, 2));
    REQUIRE(s.toggle_mask_cell(AttentionUse::encoder_self, 0, 3));
    REQUIRE(s.set_weight("decoder.layers.0.linear1.weight", 4, -2.0f));
    ModelConfig c = s.stepper().config();
    c.norm_first = true;
    c.scale_embedding = !c.scale_embedding;
    REQUIRE(s.set_config(c));
    CHECK(model_changes(s).size() == 5);
    REQUIRE(undo_all_changes(s));
    CHECK(model_changes(s).empty());
    CHECK(s.stepper().output("logits")->data == logits.data);
}

TEST_CASE("a --switch flag sets a Model view switch, and the changes list it", "[changes][launch]") {
    auto o = parse_launch_options({"--switch", "pre-ln", "--switch", "no-final-norm"});
    REQUIRE(o);
    CHECK(o->switches == std::vector<std::string>{"pre-ln", "no-final-norm"});
    CHECK_FALSE(parse_launch_options({"--switch", "sideways"}));
    Session s = file_session();
    ModelConfig c = s.stepper().config();
    for (const std::string& name : o->switches) REQUIRE(apply_launch_switch(name, c));
    REQUIRE(s.set_config(c));
    const auto changes = model_changes(s);
    REQUIRE(changes.size() == 2);
    CHECK(changes[0].which == ConfigSwitch::layer_norm);
    CHECK(changes[1].which == ConfigSwitch::final_norm);
    // Marian's: the swish activation and the sinusoids' layout.
    ModelConfig m;
    REQUIRE(apply_launch_switch("silu", m));
    REQUIRE(apply_launch_switch("halved-sinusoids", m));
    CHECK((m.activation == Activation::silu && m.sinusoid_layout == SinusoidLayout::halves));
    REQUIRE(apply_launch_switch("interleaved-sinusoids", m));
    CHECK(m.sinusoid_layout == SinusoidLayout::interleaved);
}
