// Nothing passes a narrow view's right edge: a row of radio buttons (widgets/radio_row.h) wraps, and a colour
// bar's caption (widgets/heatmap_widget.h) goes under the bar, as at 1280x720 in a classroom (the attention view's
// families, the FFN view's "all F units; click to zoom there"). Laid out by Dear ImGui on the CPU, no display.
#include "widgets/heatmap_widget.h"
#include "widgets/radio_row.h"

#include <catch2/catch.hpp>
#include <imgui.h>
#include <imgui_internal.h>  // the window's CursorMaxPos: how far right its items reached

namespace {

// One frame of a `width`-pixel window; `draw` fills it; returns how far right of the window's content edge its
// items reached (<= 0: nothing passed it).
template <class Draw>
float overshoot(float width, Draw draw) {
    ImGuiContext* context = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini left in the working folder
    io.DisplaySize = ImVec2(1280, 720);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(width, 400));
    ImGui::Begin("view", nullptr, ImGuiWindowFlags_NoDecoration);
    draw();
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    const float right = window->Pos.x + ImGui::GetWindowContentRegionMax().x;
    const float reached = window->DC.CursorMaxPos.x;
    ImGui::End();
    ImGui::EndFrame();
    ImGui::DestroyContext(context);
    return reached - right;
}

}  // namespace

TEST_CASE("the attention view's family radios wrap at a narrow view's edge", "[edge_wrap]") {
    const std::vector<const char*> families = {"Encoder self-attention", "Decoder masked self-attention",
                                               "Cross-attention"};
    CHECK(overshoot(330.0f, [&] { attnlab::gui::radio_row(families, 2); }) <= 0.0f);
    CHECK(overshoot(1200.0f, [&] { attnlab::gui::radio_row(families, 0); }) <= 0.0f);
}

TEST_CASE("a colour bar's long caption goes under the bar, wrapped, not past the edge", "[edge_wrap]") {
    CHECK(overshoot(260.0f, [] {
              attnlab::gui::colorbar_widget(nullptr, -2.63f, 2.63f, 160.0f,
                                            "all F units, in strips; click to zoom there");
          }) <= 0.0f);
}
