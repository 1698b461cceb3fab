// model_file_among: a Hugging Face folder dropped (or picked in the page) as its files opens by its config.json.
#include "dropped_files.h"

#include <catch2/catch.hpp>

using attnlab::gui::model_file_among;

TEST_CASE("one file or folder handed over is the one opened", "[dropped_files]") {
    CHECK(model_file_among({}) == std::nullopt);
    CHECK(model_file_among({"/m/tokenizer.json"}) == "/m/tokenizer.json");
    CHECK(model_file_among({"/models/gpt2"}) == "/models/gpt2");
}

TEST_CASE("a Hugging Face folder's files open by their config.json, else by the weights", "[dropped_files]") {
    CHECK(model_file_among({"/d/tokenizer.json", "/d/model.safetensors", "/d/config.json", "/d/vocab.json"}) ==
          "/d/config.json");
    CHECK(model_file_among({"/d/tokenizer.json", "/d/model.safetensors", "/d/merges.txt"}) == "/d/model.safetensors");
    CHECK(model_file_among({"/d/notes.txt", "/d/readme.md"}) == "/d/notes.txt");
}
