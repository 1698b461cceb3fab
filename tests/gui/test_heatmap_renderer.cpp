// The heatmap renderer in a real (hidden) OpenGL 3.3 context, run under Xvfb: textures are
// re-rendered only when their data changed, masked cells are hatched, and unused ones are freed.
#include "gl/heatmap_renderer.h"

#include "gl_context.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace attnlab::gui;

namespace {

// RGBA of the texture's pixel at texture coordinates (u, v), v = 0 being the top row as ImGui draws it.
std::vector<uint8_t> texture_color(ImTextureID tex, float u, float v) {
    const GLuint id = static_cast<GLuint>(reinterpret_cast<intptr_t>(tex));
    glBindTexture(GL_TEXTURE_2D, id);
    GLint w = 0, h = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
    std::vector<uint8_t> pixels(static_cast<size_t>(w) * h * 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    const int x = std::min(static_cast<int>(u * w), w - 1), y = std::min(static_cast<int>(v * h), h - 1);
    const size_t i = (static_cast<size_t>(y) * w + x) * 4;
    return {pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]};
}

// RGBA of the texture's pixel at the centre of cell (row, col).
std::vector<uint8_t> cell_color(ImTextureID tex, int rows, int cols, int row, int col) {
    return texture_color(tex, (col + 0.5f) / static_cast<float>(cols), (row + 0.5f) / static_cast<float>(rows));
}

}  // namespace

TEST_CASE("heatmaps re-render only when their data changes, and follow the colormap", "[heatmap][gl]") {
    GlContext::make_current();
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

TEST_CASE("an atlas draws each source in its own tile and redraws only the tiles that changed", "[heatmap][gl]") {
    GlContext::make_current();
    auto renderer = HeatmapRenderer::create(ATTNLAB_SOURCE_DIR "/shaders");
    if (!renderer) FAIL(renderer.error().message);
    // Three 2 × 3 tiles, two to a row: tile 0 all 0 (dark purple), tile 1 all 1 (yellow); tile 2 row 0
    // at 1, row 1 at 0.
    const float zeros[6] = {0, 0, 0, 0, 0, 0}, ones[6] = {1, 1, 1, 1, 1, 1}, top_row[6] = {1, 1, 1, 0, 0, 0};
    std::vector<HeatmapSource> tiles(3);
    const float* values[] = {zeros, ones, top_row};
    for (int i = 0; i < 3; ++i) tiles[i] = HeatmapSource{"", values[i], 2, 3, /*version=*/1};

    HeatmapAtlas atlas = renderer->atlas("grid", tiles, 2, 30, 20);
    REQUIRE(atlas.texture);
    CHECK(atlas.tiles_per_row == 2);
    CHECK(atlas.tile_rows == 2);
    CHECK(renderer->renders() == 3);
    CHECK(atlas.uv0(1).x == Approx(0.5f));
    CHECK(atlas.uv0(2).y == Approx(0.5f));
    CHECK(atlas.uv1(2).x == Approx(0.5f));

    const auto centre = [&](int tile, float du = 0.5f, float dv = 0.5f) {
        const ImVec2 a = atlas.uv0(tile), b = atlas.uv1(tile);
        return texture_color(atlas.texture, a.x + du * (b.x - a.x), a.y + dv * (b.y - a.y));
    };
    const auto dark = centre(0), bright = centre(1);
    CHECK(dark[0] < 100);
    CHECK(bright[0] > 200);
    CHECK(bright[1] > 200);
    // Matrix row 0 is the tile's top: the bright row above the dark one.
    CHECK(centre(2, 0.5f, 0.25f)[0] > 200);
    CHECK(centre(2, 0.5f, 0.75f)[0] < 100);

    // Nothing changed: nothing drawn. One source's version changes: only its tile is drawn.
    renderer->atlas("grid", tiles, 2, 30, 20);
    CHECK(renderer->renders() == 3);
    tiles[1].values = zeros;
    tiles[1].version = 2;
    atlas = renderer->atlas("grid", tiles, 2, 30, 20);
    CHECK(renderer->renders() == 4);
    CHECK(centre(1)[0] < 100);
    CHECK(centre(2, 0.5f, 0.25f)[0] > 200);  // the other tiles kept their drawing

    // A new tile size draws every tile again, in a texture of the new size.
    atlas = renderer->atlas("grid", tiles, 2, 12, 8);
    CHECK(renderer->renders() == 7);
    GLint w = 0;
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<intptr_t>(atlas.texture)));
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    CHECK(w == 24);
}

TEST_CASE("a 1024 x 1024 head in a 64-pixel thumbnail keeps its one bright cell (max-pooled)", "[heatmap][gl]") {
    GlContext::make_current();
    auto renderer = HeatmapRenderer::create(ATTNLAB_SOURCE_DIR "/shaders");
    if (!renderer) FAIL(renderer.error().message);
    const int T = 1024, thumb = 64, row = 700, col = 301;
    std::vector<float> w(static_cast<size_t>(T) * T, 1e-4f);  // a head attending to almost nothing
    w[static_cast<size_t>(row) * T + col] = 1.0f;
    HeatmapSource s{"head", w.data(), T, T, /*version=*/1};
    const HeatmapAtlas atlas = renderer->atlas("grid", {s, s}, 2, thumb, thumb);
    REQUIRE(atlas.texture);
    // The pixel covering (700, 301) is yellow; its neighbours stay dark purple.
    const auto pixel = [&](int tile, int px, int py) {
        const ImVec2 a = atlas.uv0(tile), b = atlas.uv1(tile);
        return texture_color(atlas.texture, a.x + (px + 0.5f) / thumb * (b.x - a.x),
                             a.y + (py + 0.5f) / thumb * (b.y - a.y));
    };
    const int px = col * thumb / T, py = row * thumb / T;
    for (int tile = 0; tile < 2; ++tile) {
        const auto bright = pixel(tile, px, py);
        CHECK(bright[0] > 200);
        CHECK(bright[1] > 200);
        CHECK(bright[2] < 80);
        for (const auto& [dx, dy] : {std::pair{-1, 0}, {1, 0}, {0, -1}, {0, 1}})
            CHECK(pixel(tile, px + dx, py + dy)[0] < 100);
    }
}

TEST_CASE("a window of a matrix is drawn again only when the window, its size or the data change", "[heatmap][gl]") {
    GlContext::make_current();
    auto renderer = HeatmapRenderer::create(ATTNLAB_SOURCE_DIR "/shaders");
    if (!renderer) FAIL(renderer.error().message);
    const int T = 64;
    std::vector<float> w(static_cast<size_t>(T) * T, 0.0f);
    w[static_cast<size_t>(10) * T + 20] = 1.0f;  // inside the window below, at its (2, 4)
    HeatmapSource s{"detail", w.data() + 8 * T + 16, 8, 8, /*version=*/1};
    s.stride = T;                                          // rows 8-15, columns 16-23
    const ImTextureID tex = renderer->texture(s, 80, 80);  // 10 px a cell
    CHECK(renderer->renders() == 1);
    const auto bright = cell_color(tex, 8, 8, 2, 4), dark = cell_color(tex, 8, 8, 2, 3);
    CHECK(bright[0] > 200);
    CHECK(dark[0] < 100);
    for (int frame = 0; frame < 5; ++frame) renderer->texture(s, 80, 80);  // frames with nothing changed
    CHECK(renderer->renders() == 1);
    s.values = w.data() + 8 * T + 17;  // panned one column
    renderer->texture(s, 80, 80);
    CHECK(renderer->renders() == 2);
    CHECK(cell_color(renderer->texture(s, 80, 80), 8, 8, 2, 3)[0] > 200);
    renderer->texture(s, 40, 40);  // zoomed out
    CHECK(renderer->renders() == 3);
}
