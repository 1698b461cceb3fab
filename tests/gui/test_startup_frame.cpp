// The first model's pass shows its progress: once the startup frame is drawn (before the model opens, as main
// does), the stepper's reports draw the progress card in the window; with no frame drawn yet they draw nothing,
// which was the black window of a GPT-2 launch.
#include "gl/font_texture.h"
#include "gl/ui_renderer.h"
#include "progress_screen.h"
#include "startup_frame.h"

#include "gl_context.h"
#include "dear_imgui_on_window.h"

#include <backends/imgui_impl_glfw.h>
#include <catch2/catch.hpp>
#include <imgui.h>

#include <chrono>
#include <string>
#include <thread>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

// A step of a first pass reported after the card's delay, as a long pass reports its later steps.
void report_a_late_step(ProgressScreen& progress) {
    progress.begin_frame(false);
    std::this_thread::sleep_for(std::chrono::duration<double>(ProgressScreen::kShowAfterSeconds + 0.05));
    const std::string path = "decoder.layers.11.ffn.hidden";
    report_progress(WorkProgress{2, 206, 213, &path});
}

}  // namespace

TEST_CASE("the first pass's progress card shows once the startup frame is drawn", "[ui][gl]") {
    GlContext::make_current();
    const ImGuiOnWindow imgui;
    auto renderer = UiRenderer::create(ATTNLAB_SOURCE_DIR "/shaders");
    REQUIRE(renderer);
    FontTexture font_texture;
    ProgressScreen progress(imgui.window, *renderer, [](ImTextureID) { return false; });
    const ListenToProgress listening(progress);

    report_a_late_step(progress);
    CHECK(progress.cards_drawn() == 0);  // no frame yet: nothing to draw the card with

    show_startup_frame(imgui.window, font_texture, *renderer, progress, ViewState{}, 1.0f, "gpt2-124m");
    report_a_late_step(progress);
    CHECK(progress.cards_drawn() == 1);
}
