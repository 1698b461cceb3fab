// The three places where OpenGL 3.3 core (the desktop) and WebGL2 (the page) differ for the app's renderers.
#pragma once

#include "gl/gl.h"

#include <cstddef>
#include <string>

namespace attnlab::gui {

// A shader of shaders/ (written as "#version 330 core") as this GL compiles it: as it is on the desktop; in the
// page with "#version 300 es" and high float and int precision in its place.
std::string shader_source_for_this_gl(const std::string& source);

// The bound 2-D texture filled with a width × height alpha mask, sampled as white with that alpha (the font atlas):
// an R8 texture swizzled on the desktop; RGBA8 in the page, since WebGL2 has no swizzle.
void upload_white_alpha_texture(int width, int height, const unsigned char* alpha);

// glDrawElementsBaseVertex of ImGui's vertices (ui_renderer's vertex array: position, uv, colour): WebGL2 has no
// base vertex, so the page points the attributes `base_vertex` vertices into the bound vertex buffer instead.
void draw_imgui_elements(GLsizei count, GLenum index_type, size_t index_offset_bytes, GLint base_vertex);

}  // namespace attnlab::gui
