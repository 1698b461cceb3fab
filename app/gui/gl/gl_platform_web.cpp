#include "gl/gl_platform.h"

#include <imgui.h>

#include <cstdint>
#include <vector>

namespace attnlab::gui {

std::string shader_source_for_this_gl(const std::string& source) {
    const size_t line_end = source.find('\n');
    if (source.rfind("#version 330 core", 0) != 0 || line_end == std::string::npos) return source;
    return "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;" +
           source.substr(line_end);
}

void upload_white_alpha_texture(int width, int height, const unsigned char* alpha) {
    std::vector<uint8_t> rgba(static_cast<size_t>(width) * height * 4, 255);  // (4·width·height) white…
    for (size_t i = 0; i < static_cast<size_t>(width) * height; ++i) rgba[4 * i + 3] = alpha[i];  // …with alpha
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
}

void draw_imgui_elements(GLsizei count, GLenum index_type, size_t index_offset_bytes, GLint base_vertex) {
    const auto stride = static_cast<GLsizei>(sizeof(ImDrawVert));
    const auto at = [&](size_t field) {
        return reinterpret_cast<void*>(static_cast<size_t>(base_vertex) * sizeof(ImDrawVert) + field);
    };
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, at(offsetof(ImDrawVert, pos)));
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, at(offsetof(ImDrawVert, uv)));
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, at(offsetof(ImDrawVert, col)));
    glDrawElements(GL_TRIANGLES, count, index_type, reinterpret_cast<void*>(index_offset_bytes));
}

}  // namespace attnlab::gui
