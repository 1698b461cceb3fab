// One ImGui frame with a single centred line, rendered and shown, and kept for the progress card.
#include "startup_frame.h"

#include "app.h"
#include "fonts.h"
#include "i18n.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include <cstdio>

namespace attnlab::gui {

void show_startup_frame(GLFWwindow* window, FontTexture& font_texture, UiRenderer& ui_renderer,
                        ProgressScreen& progress, const ViewState& view, float content_scale,
                        const std::string& opening) {
    const UiScale scale = ui_scale(window_scale_inputs(content_scale, view.settings));
    load_ui_font(scale.font_pixels);
    ImGui::GetStyle() = ImGuiStyle();
    ImGui::GetStyle().ScaleAllSizes(scale.style_scale);
    font_texture.upload(*ImGui::GetIO().Fonts);
    if (view.settings.dark_theme)
        ImGui::StyleColorsDark();
    else
        ImGui::StyleColorsLight();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    char line[512];
    std::snprintf(line, sizeof line, tr(view.settings.korean, "Opening %s …"),
                  opening.empty() ? "Attention Lab" : opening.c_str());
    const ImVec2 size = ImGui::GetIO().DisplaySize, text = ImGui::CalcTextSize(line);
    // Above the middle, where the progress card will not cover it.
    ImGui::GetForegroundDrawList()->AddText(ImVec2(0.5f * (size.x - text.x), 0.35f * size.y - 0.5f * text.y),
                                            ImGui::GetColorU32(ImGuiCol_Text), line);
    ImGui::Render();
    progress.keep_frame(*ImGui::GetDrawData());
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ui_renderer.render(*ImGui::GetDrawData(), [](ImTextureID) { return false; });
    glfwSwapBuffers(window);
    glfwPollEvents();
}

}  // namespace attnlab::gui
