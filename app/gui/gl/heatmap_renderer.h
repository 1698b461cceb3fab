// HeatmapRenderer: turns a matrix into an RGBA texture by running shaders/heatmap.frag into
// a framebuffer. Each drawing has a key; its texture is re-rendered only when the matrix's
// version, mask, colormap or range changed, and freed when it has not been drawn for a while.
#pragma once

#include "gl/gl.h"
#include "result.h"

#include <imgui.h>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace attnlab::gui {

enum class Colormap { sequential, diverging };

struct HeatmapSource {
    std::string key;            // stable name of this drawing, e.g. "attention/encoder.layers.0.self_attn/1"
    const float* values;        // (rows, cols), row-major
    int rows = 0, cols = 0;
    uint64_t version = 0;       // changes whenever the values change
    const float* mask = nullptr;  // optional (rows, cols): 0 = masked, drawn hatched
    uint64_t mask_version = 0;
    Colormap colormap = Colormap::sequential;
    float lo = 0.0f, hi = 1.0f;  // sequential: [lo, hi]; diverging: [−hi, hi]
};

// The range to colour by: [min, max] of the finite values, or [−m, m] with m = max |v| when diverging.
void heatmap_range(const float* values, int64_t n, Colormap colormap, float& lo, float& hi);

class HeatmapRenderer {
public:
    static Result<HeatmapRenderer> create(const std::string& shader_dir);
    HeatmapRenderer(HeatmapRenderer&& other) noexcept;
    HeatmapRenderer& operator=(HeatmapRenderer&&) = delete;
    HeatmapRenderer(const HeatmapRenderer&) = delete;
    ~HeatmapRenderer();

    ImTextureID texture(const HeatmapSource& source);
    ImTextureID colorbar(Colormap colormap);  // the ramp from lo (left) to hi (right)
    void end_frame();                         // frees textures unused for kMaxIdleFrames
    void release_all();                       // frees every texture; the next draw renders each anew

    uint64_t renders() const { return renders_; }  // how many times a texture was (re)drawn
    size_t live_textures() const { return entries_.size(); }

private:
    struct Entry {
        GLuint values_tex = 0, mask_tex = 0, color_tex = 0, fbo = 0;
        int rows = 0, cols = 0, cell_px = 1;
        uint64_t version = 0, mask_version = 0;
        Colormap colormap = Colormap::sequential;
        float lo = 0, hi = 0;
        bool has_mask = false;
        uint64_t last_used = 0;
    };
    explicit HeatmapRenderer(GLuint program);
    void render(Entry& e, const HeatmapSource& s);
    static void release(Entry& e);

    static constexpr uint64_t kMaxIdleFrames = 120;
    GLuint program_ = 0, vao_ = 0;
    std::unordered_map<std::string, Entry> entries_;
    uint64_t frame_ = 0, renders_ = 0;
};

}  // namespace attnlab::gui
