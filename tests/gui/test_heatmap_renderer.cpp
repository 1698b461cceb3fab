// The heatmap renderer in a real (hidden) OpenGL 3.3 context, run under Xvfb: textures are
// re-rendered only when their data changed, masked cells are hatched, and unused ones are freed.
#include "gl/heatmap_renderer.h"

#include <GLFW/glfw3.h>
#include <catch2/catch.hpp>

#include <vector>

using namespace attnlab::gui;

namespace {

struct GlContext {
    GLFWwindow* window = nullptr;
    GlContext() {
        REQUIRE(glfwInit());
        glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        window = glfwCreateWindow(64, 64, "test", nullptr, nullptr);
        REQUIRE(window);
        glfwMakeContextCurrent(window);
    }
    ~GlContext() {
        glfwDestroyWindow(window);
        glfwTerminate();
    }
};

// RGBA of the texture's pixel at the centre of cell (row, col).
std::vector<uint8_t> cell_color(ImTextureID tex, int rows, int cols, int row, int col) {
    const GLuint id = static_cast<GLuint>(reinterpret_cast<intptr_t>(tex));
    glBindTexture(GL_TEXTURE_2D, id);
    GLint w = 0, h = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
    std::vector<uint8_t> pixels(static_cast<size_t>(w) * h * 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    const int x = (2 * col + 1) * w / (2 * cols), y = (2 * row + 1) * h / (2 * rows);
    const size_t i = (static_cast<size_t>(y) * w + x) * 4;
    return {pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]};
}

}  // namespace

TEST_CASE("heatmaps re-render only when their data changes, and follow the colormap", "[heatmap][gl]") {
    GlContext gl;
    auto renderer = HeatmapRenderer::create(ATTNLAB_SOURCE_DIR "/shaders");
    if (!renderer) FAIL(renderer.error().message);
    const float values[] = {0.0f, 1.0f, 0.5f, 0.25f};  // (2, 2)
    const float mask[] = {1.0f, 0.0f, 1.0f, 1.0f};
    HeatmapSource s{"m", values, 2, 2, /*version=*/1};
    s.lo = 0.0f, s.hi = 1.0f;

    const ImTextureID first = renderer->texture(s);
    REQUIRE(first);
    CHECK(renderer->renders() == 1);
    renderer->texture(s);
    CHECK(renderer->renders() == 1);  // same version: nothing uploaded
    s.version = 2;
    renderer->texture(s);
    CHECK(renderer->renders() == 2);
    s.colormap = Colormap::diverging;
    renderer->texture(s);
    CHECK(renderer->renders() == 3);

    // Sequential: 0 is dark purple, 1 is yellow.
    s.colormap = Colormap::sequential;
    const ImTextureID tex = renderer->texture(s);
    const auto low = cell_color(tex, 2, 2, 0, 0), high = cell_color(tex, 2, 2, 0, 1);
    CHECK(low[0] < 100);
    CHECK(low[2] > 60);
    CHECK(high[0] > 200);
    CHECK(high[1] > 200);
    CHECK(high[2] < 80);

    // A masked cell is grey (r = g = b), whatever its value.
    s.mask = mask;
    s.mask_version = 1;
    const auto masked = cell_color(renderer->texture(s), 2, 2, 0, 1);
    CHECK(masked[0] == masked[1]);
    CHECK(masked[1] == masked[2]);

    // Textures not drawn for a while are freed.
    CHECK(renderer->live_textures() == 1);
    for (int i = 0; i < 200; ++i) renderer->end_frame();
    CHECK(renderer->live_textures() == 0);
}
