// How model lists name a model: its file, or a Hugging Face folder by the folder's name.
#include "panels/panel_context.h"

#include <catch2/catch.hpp>

using attnlab::gui::model_display_name;

TEST_CASE("a model is listed by its file's name, a folder by the folder's", "[app]") {
    CHECK(model_display_name("/work/assets/models/en-ko.safetensors") == "en-ko.safetensors");
    CHECK(model_display_name("/models/gpt2") == "gpt2");
    CHECK(model_display_name("/models/gpt2/") == "gpt2");
    CHECK(model_display_name("/models/gpt2/config.json") == "gpt2");
    CHECK(model_display_name("config.json") == "config.json");  // no folder to name
}
