// UiRenderer: draws ImGui's draw data with OpenGL 3.3, in place of the backend's renderer.
// Text and shapes go through one blended colour × texture program; images whose texture the caller
// calls opaque (the heatmaps) go through a program that only samples, with blending off, which
// llvmpipe draws at about half the cost per pixel.
#pragma once

#include "gl/gl.h"
#include "result.h"

#include <imgui.h>

#include <functional>
#include <string>

namespace attnlab::gui {

class UiRenderer {
public:
    static Result<UiRenderer> create(const std::string& shader_dir);
    UiRenderer(UiRenderer&& other) noexcept;
    UiRenderer& operator=(UiRenderer&&) = delete;
    UiRenderer(const UiRenderer&) = delete;
    ~UiRenderer();

    void render(const ImDrawData& data, const std::function<bool(ImTextureID)>& is_opaque);

private:
    UiRenderer(GLuint blended, GLuint opaque);
    void set_up_state(const ImDrawData& data, int fb_width, int fb_height) const;

    GLuint blended_ = 0, opaque_ = 0;  // programs: ui.vert with ui.frag, and with ui_opaque.frag
    GLuint vao_ = 0, vertex_buffer_ = 0, index_buffer_ = 0;
};

}  // namespace attnlab::gui
