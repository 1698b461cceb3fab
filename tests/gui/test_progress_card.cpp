// The progress card over long work costs a copy, not a frame: the last frame is rendered dimmed once, and every
// card after the first copies that picture (a middle-token edit of GPT-2 small over 992 tokens drew a card every
// 0.1 s, each rendering the whole 1920x1080 frame again under llvmpipe, about 40 ms, issue 38 D6).
#include "gl/font_texture.h"
#include "gl/ui_renderer.h"
#include "progress_screen.h"
#include "startup_frame.h"

#include "gl_context.h"
#include "dear_imgui_on_window.h"

#include <backends/imgui_impl_glfw.h>
#include <imgui.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

void sleep_seconds(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

}  // namespace

TEST_CASE("a long run's progress cards render the last frame once and copy it after", "[ui][gl]") {
    GlContext::make_current();
    const ImGuiOnWindow imgui;
    auto renderer = UiRenderer::create(ATTNLAB_SOURCE_DIR "/shaders");
    REQUIRE(renderer);
    FontTexture font_texture;
    ProgressScreen progress(imgui.window, *renderer, [](ImTextureID) { return false; });
    const ListenToProgress listening(progress);
    show_startup_frame(imgui.window, font_texture, *renderer, progress, ViewState{}, 1.0f, "gpt2-124m");

    // One piece of work reporting a step now and then for four redraw periods past the card's delay.
    progress.begin_frame(false);
    const std::string path = "decoder.layers.5.ffn.hidden";
    sleep_seconds(ProgressScreen::kShowAfterSeconds + 0.05);
    constexpr int kCards = 4;
    for (size_t at = 100; at < 100 + kCards; ++at) {
        report_progress(WorkProgress{2, at, 213, &path});
        sleep_seconds(ProgressScreen::kRedrawSeconds + 0.02);
    }
    CHECK(progress.cards_drawn() == kCards);  // the bar and seconds move as before
    CHECK(progress.frames_dimmed() == 1);     // the frame under them was rendered once

    // A new frame kept (the window drew again): the next work's first card renders that one.
    show_startup_frame(imgui.window, font_texture, *renderer, progress, ViewState{}, 1.0f, "gpt2-124m");
    progress.begin_frame(false);
    sleep_seconds(ProgressScreen::kShowAfterSeconds + 0.05);
    report_progress(WorkProgress{2, 150, 213, &path});
    CHECK(progress.cards_drawn() == kCards + 1);
    CHECK(progress.frames_dimmed() == 2);
}
