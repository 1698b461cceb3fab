// HeatmapRenderer: turns a matrix into an RGBA texture by running shaders/heatmap.frag into
// a framebuffer. Each drawing has a key; its texture is re-rendered only when the matrix's
// version, mask, colormap or range changed, and freed when it has not been drawn for a while.
// Many small heatmaps (a grid of attention heads) share one texture as the tiles of an atlas:
// on llvmpipe each switch between such render-target textures flushes the frame's drawing.
// A matrix drawn in fewer pixels than it has cells is max-pooled first (gl/max_pool.h): every pixel shows the
// largest of the cells it covers, so one sharp cell stays visible in a thumbnail.
#pragma once

#include "gl/gl.h"
#include "result.h"

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace attnlab::gui {

enum class Colormap { sequential, diverging };

struct HeatmapSource {
    std::string key;      // stable name of this drawing, e.g. "attention/encoder.layers.0.self_attn/1"
    const float* values;  // (rows, cols), row-major, row r at values + r · stride; or null, with fetch below
    int rows = 0, cols = 0;
    uint64_t version = 0;         // changes whenever the values change
    const float* mask = nullptr;  // optional (rows, cols), same stride: 0 = masked, drawn hatched
    uint64_t mask_version = 0;
    Colormap colormap = Colormap::sequential;
    float lo = 0.0f, hi = 1.0f;  // sequential: [lo, hi]; diverging: [−hi, hi]
    int64_t stride = 0;          // floats from one row to the next (0: cols): a window into a larger matrix
    // Where values is null: gives them, called only when the drawing is stale (its version, size, mask or colours
    // changed), for numbers that are recomputed to be read (an on-demand stage of a checkpoint trace, trace_keep.h).
    std::function<const float*()> fetch = nullptr;
};

// The range to colour by: [min, max] of the finite values, or [−m, m] with m = max |v| when diverging.
void heatmap_range(const float* values, int64_t n, Colormap colormap, float& lo, float& hi);

// An atlas texture of tiles_per_row × tile_rows equal tiles, filled row by row.
struct HeatmapAtlas {
    ImTextureID texture = nullptr;
    int tiles_per_row = 1, tile_rows = 1;
    ImVec2 uv0(int tile) const;  // the tile's top-left corner in texture coordinates
    ImVec2 uv1(int tile) const;  // its bottom-right corner
};

class HeatmapRenderer {
public:
    static Result<HeatmapRenderer> create(const std::string& shader_dir);
    HeatmapRenderer(HeatmapRenderer&& other) noexcept;
    HeatmapRenderer& operator=(HeatmapRenderer&&) = delete;
    HeatmapRenderer(const HeatmapRenderer&) = delete;
    ~HeatmapRenderer();

    ImTextureID texture(const HeatmapSource& source);
    // The source drawn into a texture of width × height pixels (max-pooled where that is fewer than its cells).
    ImTextureID texture(const HeatmapSource& source, int width, int height);
    // The sources as tiles of tile_w × tile_h pixels, tiles_per_row to a row, under one key; a source with no
    // rows leaves its tile empty. Only tiles whose source changed are drawn again.
    HeatmapAtlas atlas(const std::string& key, const std::vector<HeatmapSource>& tiles, int tiles_per_row, int tile_w,
                       int tile_h);
    ImTextureID colorbar(Colormap colormap);  // the ramp from lo (left) to hi (right)
    void end_frame();                         // frees textures unused for kMaxIdleFrames
    void release_all();                       // frees every texture; the next draw renders each anew

    bool owns(ImTextureID texture) const;          // one of this renderer's textures: opaque, drawn without blending
    uint64_t renders() const { return renders_; }  // how many heatmaps (or tiles) were (re)drawn
    size_t live_textures() const { return entries_.size(); }

private:
    // What one tile shows; a tile is drawn again when its source no longer matches.
    struct TileState {
        const float* values = nullptr;  // where the window starts: a pan moves it
        int64_t stride = 0;
        int rows = 0, cols = 0;
        uint64_t version = 0, mask_version = 0;
        bool has_mask = false;
        Colormap colormap = Colormap::sequential;
        float lo = 0, hi = 0;
        bool operator==(const TileState&) const = default;
    };
    struct Entry {
        GLuint values_tex = 0, mask_tex = 0, color_tex = 0, fbo = 0;
        int width = 0, height = 0;     // of color_tex, in pixels
        std::vector<TileState> tiles;  // one for a single heatmap; rows = 0 until drawn
        uint64_t last_used = 0;
    };
    explicit HeatmapRenderer(GLuint program);
    void allocate(Entry& e, int width, int height, size_t n_tiles);
    void draw_tile(Entry& e, const HeatmapSource& s, int x, int y, int w, int h);
    void release(Entry& e);

    static constexpr uint64_t kMaxIdleFrames = 120;
    GLuint program_ = 0, vao_ = 0;
    std::unordered_map<std::string, Entry> entries_;
    std::unordered_set<GLuint> color_textures_;  // every entry's color_tex
    uint64_t frame_ = 0, renders_ = 0;
};

}  // namespace attnlab::gui
