// The running app writes its settings when they change, at most about once a second, never every frame.
#include "settings_autosave.h"

#include <catch2/catch.hpp>

using namespace attnlab::gui;

TEST_CASE("settings are written after a change, not before a second has passed, and only once") {
    ViewState v;
    SettingsAutosave autosave(v.to_json());
    CHECK_FALSE(autosave.due(v, 0.0));  // as the run started: nothing to write
    v.settings.korean = true;
    CHECK_FALSE(autosave.due(v, 0.5));  // too soon after the last look
    CHECK(autosave.due(v, 1.0));
    CHECK_FALSE(autosave.due(v, 2.5));  // written already
    v.attention.layer = 1;
    CHECK_FALSE(autosave.due(v, 3.0));
    CHECK(autosave.due(v, 3.5));
    v.attention.layer = 0;
    v.settings.korean = false;  // back to how it started: still a change from what was written last
    CHECK(autosave.due(v, 10.0));
}

TEST_CASE("settings that change every frame are written about once a second") {
    ViewState v;
    SettingsAutosave autosave(v.to_json());
    int writes = 0;
    for (int frame = 0; frame < 600; ++frame) {  // ten seconds at 60 frames a second
        v.residual.token = frame;
        writes += autosave.due(v, frame / 60.0) ? 1 : 0;
    }
    CHECK(writes >= 9);
    CHECK(writes <= 11);
}

TEST_CASE("what the view state does not save (the predict cover, playback) asks for no write") {
    ViewState v;
    SettingsAutosave autosave(v.to_json());
    v.stepper.hidden = true;
    v.stepper.playing = true;
    v.bring_forward = View::output;
    CHECK_FALSE(autosave.due(v, 5.0));
}
