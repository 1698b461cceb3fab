// Matrix -> values texture (R32F) -> heatmap.frag -> RGBA texture that ImGui draws.
#include "gl/heatmap_renderer.h"

#include "gl/shader_program.h"

#include <algorithm>
#include <cmath>
#include <vector>

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

Result<HeatmapRenderer> HeatmapRenderer::create(const std::string& shader_dir) {
    auto program = build_shader_program(shader_dir + "/fullscreen.vert", shader_dir + "/heatmap.frag");
    if (!program) return program.error();
    return HeatmapRenderer(*program);
}

HeatmapRenderer::HeatmapRenderer(GLuint program) : program_(program) { glGenVertexArrays(1, &vao_); }

HeatmapRenderer::HeatmapRenderer(HeatmapRenderer&& o) noexcept
    : program_(o.program_), vao_(o.vao_), entries_(std::move(o.entries_)), frame_(o.frame_), renders_(o.renders_) {
    o.program_ = o.vao_ = 0;
    o.entries_.clear();
}

HeatmapRenderer::~HeatmapRenderer() {
    release_all();
    if (vao_) glDeleteVertexArrays(1, &vao_);
    if (program_) glDeleteProgram(program_);
}

void HeatmapRenderer::release(Entry& e) {
    GLuint textures[] = {e.values_tex, e.mask_tex, e.color_tex};
    glDeleteTextures(3, textures);
    if (e.fbo) glDeleteFramebuffers(1, &e.fbo);
    e = {};
}

void HeatmapRenderer::render(Entry& e, const HeatmapSource& s) {
    const bool resized = e.rows != s.rows || e.cols != s.cols;
    if (resized) {
        release(e);
        e.rows = s.rows;
        e.cols = s.cols;
        e.cell_px = std::clamp(480 / std::max(s.rows, s.cols), 1, 24);
        glGenTextures(1, &e.values_tex);
        glGenTextures(1, &e.mask_tex);
        glGenTextures(1, &e.color_tex);
        glGenFramebuffers(1, &e.fbo);
        glBindTexture(GL_TEXTURE_2D, e.color_tex);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, s.cols * e.cell_px, s.rows * e.cell_px, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     nullptr);
        // Nearest both ways: cells stay crisp, and llvmpipe samples it several times faster than linear.
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glBindFramebuffer(GL_FRAMEBUFFER, e.fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, e.color_tex, 0);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, e.values_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, s.cols, s.rows, 0, GL_RED, GL_FLOAT, s.values);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, e.mask_tex);
    std::vector<uint8_t> mask(s.mask ? static_cast<size_t>(s.rows) * s.cols : 1, 255);
    if (s.mask)
        for (size_t i = 0; i < mask.size(); ++i) mask[i] = s.mask[i] != 0.0f ? 255 : 0;
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, s.mask ? s.cols : 1, s.mask ? s.rows : 1, 0, GL_RED, GL_UNSIGNED_BYTE,
                 mask.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);

    glBindFramebuffer(GL_FRAMEBUFFER, e.fbo);
    glViewport(0, 0, s.cols * e.cell_px, s.rows * e.cell_px);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glUseProgram(program_);
    glUniform1i(glGetUniformLocation(program_, "u_values"), 0);
    glUniform1i(glGetUniformLocation(program_, "u_mask"), 1);
    glUniform1i(glGetUniformLocation(program_, "u_has_mask"), s.mask != nullptr);
    glUniform1i(glGetUniformLocation(program_, "u_colormap"), s.colormap == Colormap::sequential ? 0 : 1);
    glUniform1f(glGetUniformLocation(program_, "u_min"), s.lo);
    glUniform1f(glGetUniformLocation(program_, "u_max"), s.hi);
    glUniform1i(glGetUniformLocation(program_, "u_cell_px"), e.cell_px);
    glUniform1i(glGetUniformLocation(program_, "u_grid"), e.cell_px >= 8);
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glUseProgram(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glActiveTexture(GL_TEXTURE0);

    e.version = s.version;
    e.mask_version = s.mask_version;
    e.has_mask = s.mask != nullptr;
    e.colormap = s.colormap;
    e.lo = s.lo;
    e.hi = s.hi;
    ++renders_;
}

ImTextureID HeatmapRenderer::texture(const HeatmapSource& s) {
    if (s.rows <= 0 || s.cols <= 0) return nullptr;
    Entry& e = entries_[s.key];
    const bool stale = e.color_tex == 0 || e.rows != s.rows || e.cols != s.cols || e.version != s.version ||
                       e.mask_version != s.mask_version || e.has_mask != (s.mask != nullptr) ||
                       e.colormap != s.colormap || e.lo != s.lo || e.hi != s.hi;
    if (stale) render(e, s);
    e.last_used = frame_;
    return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(e.color_tex));
}

ImTextureID HeatmapRenderer::colorbar(Colormap colormap) {
    static_assert(sizeof(float) == 4);
    float ramp[256];
    for (int i = 0; i < 256; ++i)
        ramp[i] = colormap == Colormap::sequential ? i / 255.0f : -1.0f + 2.0f * i / 255.0f;
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
