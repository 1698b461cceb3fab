// Matrix -> values texture (R32F) -> heatmap.frag -> a tile of an RGBA texture that ImGui draws.
#include "gl/heatmap_renderer.h"

#include "gl/max_pool.h"
#include "gl/shader_program.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

void heatmap_range(const float* values, int64_t n, Colormap colormap, float& lo, float& hi) {
    float mn = INFINITY, mx = -INFINITY;
    for (int64_t i = 0; i < n; ++i)
        if (std::isfinite(values[i])) mn = std::min(mn, values[i]), mx = std::max(mx, values[i]);
    if (mn > mx) mn = mx = 0.0f;
    if (colormap == Colormap::diverging) {
        hi = std::max(std::abs(mn), std::abs(mx));
        if (hi == 0.0f) hi = 1.0f;
        lo = -hi;
    } else {
        lo = mn;
        hi = mx > mn ? mx : mn + 1.0f;
    }
}

ImVec2 HeatmapAtlas::uv0(int tile) const {
    return ImVec2(static_cast<float>(tile % tiles_per_row) / static_cast<float>(tiles_per_row),
                  static_cast<float>(tile / tiles_per_row) / static_cast<float>(tile_rows));
}

ImVec2 HeatmapAtlas::uv1(int tile) const {
    return ImVec2(static_cast<float>(tile % tiles_per_row + 1) / static_cast<float>(tiles_per_row),
                  static_cast<float>(tile / tiles_per_row + 1) / static_cast<float>(tile_rows));
}

Result<HeatmapRenderer> HeatmapRenderer::create(const std::string& shader_dir) {
    auto program = build_shader_program(shader_dir + "/fullscreen.vert", shader_dir + "/heatmap.frag");
    if (!program) return program.error();
    return HeatmapRenderer(*program);
}

HeatmapRenderer::HeatmapRenderer(GLuint program) : program_(program) { glGenVertexArrays(1, &vao_); }

HeatmapRenderer::HeatmapRenderer(HeatmapRenderer&& o) noexcept
    : program_(o.program_),
      vao_(o.vao_),
      entries_(std::move(o.entries_)),
      color_textures_(std::move(o.color_textures_)),
      frame_(o.frame_),
      renders_(o.renders_) {
    o.program_ = o.vao_ = 0;
    o.entries_.clear();
    o.color_textures_.clear();
}

HeatmapRenderer::~HeatmapRenderer() {
    release_all();
    if (vao_) glDeleteVertexArrays(1, &vao_);
    if (program_) glDeleteProgram(program_);
}

bool HeatmapRenderer::owns(ImTextureID texture) const {
    return color_textures_.count(static_cast<GLuint>(reinterpret_cast<intptr_t>(texture))) > 0;
}

void HeatmapRenderer::release(Entry& e) {
    color_textures_.erase(e.color_tex);
    GLuint textures[] = {e.values_tex, e.mask_tex, e.color_tex};
    glDeleteTextures(3, textures);
    if (e.fbo) glDeleteFramebuffers(1, &e.fbo);
    e = {};
}

void HeatmapRenderer::allocate(Entry& e, int width, int height, size_t n_tiles) {
    release(e);
    e.width = width;
    e.height = height;
    e.tiles.assign(n_tiles, TileState{});
    glGenTextures(1, &e.values_tex);
    glGenTextures(1, &e.mask_tex);
    glGenTextures(1, &e.color_tex);
    color_textures_.insert(e.color_tex);
    glGenFramebuffers(1, &e.fbo);
    glBindTexture(GL_TEXTURE_2D, e.color_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    // Nearest both ways: cells stay crisp, and llvmpipe samples it several times faster than linear.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindFramebuffer(GL_FRAMEBUFFER, e.fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, e.color_tex, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

// Draws s into the w × h pixels at (x, y) of e's texture. The caller has bound e.fbo and the program. A source with
// more cells than pixels along an axis is max-pooled to one cell per pixel first, its mask with it.
void HeatmapRenderer::draw_tile(Entry& e, const HeatmapSource& s, int x, int y, int w, int h) {
    const int64_t stride = s.stride > 0 ? s.stride : s.cols;
    const bool pool = s.rows > h || s.cols > w;
    PooledMatrix pooled;
    if (pool)
        pooled = max_pool({s.values, s.rows, s.cols, stride, s.mask}, std::min(s.rows, h), std::min(s.cols, w),
                          s.colormap == Colormap::sequential ? PoolKind::largest : PoolKind::largest_abs);
    const int rows = pool ? pooled.rows : s.rows, cols = pool ? pooled.cols : s.cols;
    const bool has_mask = pool || s.mask;
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, pool ? 0 : static_cast<GLint>(stride));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, e.values_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, pool ? pooled.values.data() : s.values);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, e.mask_tex);
    std::vector<uint8_t> mask;
    if (pool) {
        mask = std::move(pooled.mask);
    } else {
        mask.assign(s.mask ? static_cast<size_t>(rows) * cols : 1, 255);
        if (s.mask)
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < cols; ++c)
                    mask[static_cast<size_t>(r) * cols + c] = s.mask[r * stride + c] != 0.0f ? 255 : 0;
    }
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, has_mask ? cols : 1, has_mask ? rows : 1, 0, GL_RED, GL_UNSIGNED_BYTE,
                 mask.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);

    glViewport(x, y, w, h);
    glScissor(x, y, w, h);
    glUniform2i(glGetUniformLocation(program_, "u_origin"), x, y);
    glUniform2i(glGetUniformLocation(program_, "u_size"), w, h);
    glUniform1i(glGetUniformLocation(program_, "u_has_mask"), has_mask);
    glUniform1i(glGetUniformLocation(program_, "u_colormap"), s.colormap == Colormap::sequential ? 0 : 1);
    glUniform1f(glGetUniformLocation(program_, "u_min"), s.lo);
    glUniform1f(glGetUniformLocation(program_, "u_max"), s.hi);
    glUniform1i(glGetUniformLocation(program_, "u_grid"), w / cols >= 8 && h / rows >= 8);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    ++renders_;
}

HeatmapAtlas HeatmapRenderer::atlas(const std::string& key, const std::vector<HeatmapSource>& tiles, int tiles_per_row,
                                    int tile_w, int tile_h) {
    HeatmapAtlas out;
    if (tiles.empty() || tiles_per_row <= 0 || tile_w <= 0 || tile_h <= 0) return out;
    out.tiles_per_row = tiles_per_row;
    out.tile_rows = static_cast<int>((tiles.size() + tiles_per_row - 1) / tiles_per_row);
    Entry& e = entries_[key];
    const int width = tiles_per_row * tile_w, height = out.tile_rows * tile_h;
    if (e.color_tex == 0 || e.width != width || e.height != height || e.tiles.size() != tiles.size())
        allocate(e, width, height, tiles.size());
    e.last_used = frame_;
    out.texture = reinterpret_cast<ImTextureID>(static_cast<intptr_t>(e.color_tex));

    bool bound = false;
    for (size_t i = 0; i < tiles.size(); ++i) {
        const HeatmapSource& s = tiles[i];
        if (s.rows <= 0 || s.cols <= 0) continue;
        const TileState now{s.values,       s.stride,          s.rows,     s.cols, s.version,
                            s.mask_version, s.mask != nullptr, s.colormap, s.lo,   s.hi};
        if (e.tiles[i] == now) continue;
        if (!bound) {  // one framebuffer bind for every stale tile: each bind is a flush on llvmpipe
            glBindFramebuffer(GL_FRAMEBUFFER, e.fbo);
            glDisable(GL_BLEND);
            glEnable(GL_SCISSOR_TEST);
            glUseProgram(program_);
            glUniform1i(glGetUniformLocation(program_, "u_values"), 0);
            glUniform1i(glGetUniformLocation(program_, "u_mask"), 1);
            glBindVertexArray(vao_);
            bound = true;
        }
        // Texture row 0 is matrix row 0 and is drawn at the top (uv v = 0), so tile row r starts at y = r · tile_h.
        const int col = static_cast<int>(i) % tiles_per_row, row = static_cast<int>(i) / tiles_per_row;
        if (s.values) {
            draw_tile(e, s, col * tile_w, row * tile_h, tile_w, tile_h);
        } else {
            HeatmapSource fetched = s;
            fetched.values = s.fetch();
            draw_tile(e, fetched, col * tile_w, row * tile_h, tile_w, tile_h);
        }
        e.tiles[i] = now;
    }
    if (bound) {
        glBindVertexArray(0);
        glUseProgram(0);
        glDisable(GL_SCISSOR_TEST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glActiveTexture(GL_TEXTURE0);
    }
    return out;
}

ImTextureID HeatmapRenderer::texture(const HeatmapSource& s) {
    if (s.rows <= 0 || s.cols <= 0) return nullptr;
    // One tile of cell_px × cell_px pixels per cell, at most 480 pixels a side.
    const int cell_px = std::clamp(480 / std::max(s.rows, s.cols), 1, 24);
    return texture(s, s.cols * cell_px, s.rows * cell_px);
}

ImTextureID HeatmapRenderer::texture(const HeatmapSource& s, int width, int height) {
    if (s.rows <= 0 || s.cols <= 0) return nullptr;
    return atlas(s.key, {s}, 1, width, height).texture;
}

ImTextureID HeatmapRenderer::colorbar(Colormap colormap) {
    static_assert(sizeof(float) == 4);
    float ramp[256];
    for (int i = 0; i < 256; ++i) ramp[i] = colormap == Colormap::sequential ? i / 255.0f : -1.0f + 2.0f * i / 255.0f;
    HeatmapSource s{colormap == Colormap::sequential ? "colorbar/sequential" : "colorbar/diverging", ramp, 1, 256, 1};
    s.colormap = colormap;
    s.lo = colormap == Colormap::sequential ? 0.0f : -1.0f;
    s.hi = 1.0f;
    return texture(s);
}

void HeatmapRenderer::release_all() {
    for (auto& [key, e] : entries_) release(e);
    entries_.clear();
}

void HeatmapRenderer::end_frame() {
    ++frame_;
    for (auto it = entries_.begin(); it != entries_.end();) {
        if (frame_ - it->second.last_used > kMaxIdleFrames) {
            release(it->second);
            it = entries_.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace attnlab::gui
