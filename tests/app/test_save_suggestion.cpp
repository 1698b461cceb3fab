// The Model panel's Save field (app/model/save_suggestion.h): a bundled model is never suggested as the place to
// save (the audit saw assets/models/en-ko.safetensors pre-filled, one click from overwriting the tour's model).
#include "save_suggestion.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace attnlab::gui;

TEST_CASE("the Save field suggests the opened file, but never a bundled model's", "[app][save]") {
    const std::string assets = "/opt/attnlab/assets/models";
    CHECK(save_suggestion("/home/ana/work/reverse-run.safetensors", assets, "/home/ana") ==
          "/home/ana/work/reverse-run.safetensors");
    CHECK(save_suggestion("/opt/attnlab/assets/models/en-ko.safetensors", assets, "/home/ana") ==
          "/home/ana/en-ko-edited.safetensors");
    CHECK(save_suggestion("/opt/attnlab/assets/models/../models/reverse.safetensors", assets + "/", "/home/ana") ==
          "/home/ana/reverse-edited.safetensors");
    CHECK(save_suggestion("/opt/attnlab/assets/models-old/en-ko.safetensors", assets, "/home/ana") ==
          "/opt/attnlab/assets/models-old/en-ko.safetensors");  // a folder that only starts with the same name
    CHECK(save_suggestion("/opt/attnlab/assets/models/en-ko.safetensors", assets, "") == "en-ko-edited.safetensors");
}

// The second trial: a Hugging Face folder model suggested a bare "model.safetensors", saved into the app's working
// folder, and the menu bar then named no folder. A model without its own .safetensors file saves into home.
TEST_CASE("a folder model or a random one is suggested a file in the home folder, never a bare name", "[app][save]") {
    const std::string assets = "/opt/attnlab/assets/models";
    CHECK(save_suggestion("/tmp/input/gpt2-124m", assets, "/home/ana") == "/home/ana/gpt2-124m.safetensors");
    CHECK(save_suggestion("/tmp/input/gpt2-124m/", assets, "/home/ana") == "/home/ana/gpt2-124m.safetensors");
    CHECK(save_suggestion("llama-tiny (random, seed 1)", assets, "/home/ana") == "/home/ana/model.safetensors");
    CHECK(save_suggestion("/tmp/input/gpt2-124m", assets, "") == "gpt2-124m.safetensors");  // no home: as before
}

TEST_CASE("a typed save path is saved under its full path: the working folder's, or home for ~/", "[app][save]") {
    const std::string here = std::filesystem::current_path().string();
    CHECK(save_location("model.safetensors", "/home/ana") == here + "/model.safetensors");
    CHECK(save_location("~/runs/a.safetensors", "/home/ana") == "/home/ana/runs/a.safetensors");
    CHECK(save_location("/tmp/x/../a.safetensors", "/home/ana") == "/tmp/a.safetensors");
}
