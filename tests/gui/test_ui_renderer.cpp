// The UI renderer in a real (hidden) OpenGL 3.3 context under Xvfb: shapes are drawn in their vertex
// colour and clipped to their clip rectangle, text is blended over them, and an opaque heatmap is drawn
// from its own texture.
#include "gl/font_texture.h"
#include "gl/heatmap_renderer.h"
#include "gl/ui_renderer.h"

#include "gl_context.h"

#include <catch2/catch.hpp>

#include <array>
#include <vector>

using namespace attnlab::gui;

namespace {

constexpr int kSize = kGlWindowSize;

// RGB of the framebuffer at (x, y), y counted from the top as ImGui counts it.
std::array<int, 3> pixel(int x, int y) {
    uint8_t rgba[4] = {};
    glReadPixels(x, kSize - 1 - y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    return {rgba[0], rgba[1], rgba[2]};
}

}  // namespace

TEST_CASE("the UI renderer draws shapes, clips them, and draws heatmaps from their own texture", "[ui][gl]") {
    GlContext::make_current();
    auto ui = UiRenderer::create(ATTNLAB_SOURCE_DIR "/shaders");
    if (!ui) FAIL(ui.error().message);
    auto heatmaps = HeatmapRenderer::create(ATTNLAB_SOURCE_DIR "/shaders");
    if (!heatmaps) FAIL(heatmaps.error().message);

    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini left in the working directory
    io.DisplaySize = ImVec2(kSize, kSize);
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    FontTexture font;
    font.upload(*io.Fonts);
    ImGui::NewFrame();

    // Top-left quarter: red. The top-right quarter is drawn green across the whole top half, but clipped to
    // its own quarter. Bottom-left: a 1 × 1 heatmap of value 1 (yellow). Bottom-right: blue, with a square of
    // half-transparent white blended over its middle.
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    draw->AddRectFilled(ImVec2(0, 0), ImVec2(32, 32), IM_COL32(255, 0, 0, 255));
    draw->PushClipRect(ImVec2(32, 0), ImVec2(64, 32));
    draw->AddRectFilled(ImVec2(0, 0), ImVec2(64, 32), IM_COL32(0, 255, 0, 255));
    draw->PopClipRect();
    const float one = 1.0f;
    HeatmapSource s{"one", &one, 1, 1, /*version=*/1};
    s.lo = 0.0f, s.hi = 1.0f;
    const ImTextureID heatmap = heatmaps->texture(s);
    REQUIRE(heatmaps->owns(heatmap));
    CHECK_FALSE(heatmaps->owns(io.Fonts->TexID));
    // Tinted black: the opaque program samples the texture alone, so a heatmap ignores the vertex colour.
    draw->AddImage(heatmap, ImVec2(0, 32), ImVec2(32, 64), ImVec2(0, 0), ImVec2(1, 1), IM_COL32(0, 0, 0, 255));
    draw->AddRectFilled(ImVec2(32, 32), ImVec2(64, 64), IM_COL32(0, 0, 255, 255));
    draw->AddRectFilled(ImVec2(40, 40), ImVec2(56, 56), IM_COL32(255, 255, 255, 128));  // half-transparent white
    ImGui::Render();

    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ui->render(*ImGui::GetDrawData(), [&](ImTextureID t) { return heatmaps->owns(t); });

    CHECK(pixel(16, 16) == std::array<int, 3>{255, 0, 0});  // red left of the clip rectangle, not painted over
    CHECK(pixel(48, 16) == std::array<int, 3>{0, 255, 0});  // green inside it
    const auto yellow = pixel(16, 48);  // through the blended colour × texture program it would be black
    CHECK(yellow[0] > 200);
    CHECK(yellow[1] > 200);
    CHECK(yellow[2] < 80);
    CHECK(pixel(34, 34) == std::array<int, 3>{0, 0, 255});
    const auto blend = pixel(48, 48);  // 50% white over blue
    CHECK(blend[0] == Approx(128).margin(2));
    CHECK(blend[2] == 255);

    ImGui::DestroyContext();
}
