// Dear ImGui with its GLFW backend on the test binary's window (gl_context.h), for one test: as the app sets it up,
// with no imgui.ini written to the working folder.
#pragma once

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

struct ImGuiOnWindow {
    GLFWwindow* window;
    ImGuiOnWindow() : window(glfwGetCurrentContext()) {
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;
        ImGui_ImplGlfw_InitForOpenGL(window, false);
    }
    ~ImGuiOnWindow() {
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    ImGuiOnWindow(const ImGuiOnWindow&) = delete;
    ImGuiOnWindow& operator=(const ImGuiOnWindow&) = delete;
};
