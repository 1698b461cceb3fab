// A hidden GLFW window with a current OpenGL 3.3 core context, for tests run under Xvfb.
#pragma once

#include <GLFW/glfw3.h>
#include <catch2/catch.hpp>

struct GlContext {
    GLFWwindow* window = nullptr;
    explicit GlContext(int width = 64, int height = 64) {
        REQUIRE(glfwInit());
        glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        window = glfwCreateWindow(width, height, "test", nullptr, nullptr);
        REQUIRE(window);
        glfwMakeContextCurrent(window);
    }
    ~GlContext() {
        glfwDestroyWindow(window);
        glfwTerminate();
    }
    GlContext(const GlContext&) = delete;
    GlContext& operator=(const GlContext&) = delete;
};
