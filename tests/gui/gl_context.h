// One hidden 64 × 64 GLFW window with a current OpenGL 3.3 core context, shared by every test in the binary
// and run under Xvfb. Initialising and terminating GLFW once per test made glfwInit fail now and then.
#pragma once

#include <GLFW/glfw3.h>
#include <catch2/catch.hpp>

constexpr int kGlWindowSize = 64;

class GlContext {
public:
    static void make_current() {
        static GlContext context;
        REQUIRE(context.window_);
        glfwMakeContextCurrent(context.window_);
    }

private:
    GlContext() {
        if (!glfwInit()) return;
        glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        window_ = glfwCreateWindow(kGlWindowSize, kGlWindowSize, "test", nullptr, nullptr);
    }
    ~GlContext() {
        if (window_) glfwDestroyWindow(window_);
        glfwTerminate();
    }
    GLFWwindow* window_ = nullptr;
};
