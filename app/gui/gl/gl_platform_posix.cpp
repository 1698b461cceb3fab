#include "gl/gl_platform.h"

namespace attnlab::gui {

std::string shader_source_for_this_gl(const std::string& source) { return source; }

void upload_white_alpha_texture(int width, int height, const unsigned char* alpha) {
    const GLint white_with_alpha[] = {GL_ONE, GL_ONE, GL_ONE, GL_RED};
    glTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, white_with_alpha);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, width, height, 0, GL_RED, GL_UNSIGNED_BYTE, alpha);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

void draw_imgui_elements(GLsizei count, GLenum index_type, size_t index_offset_bytes, GLint base_vertex) {
    glDrawElementsBaseVertex(GL_TRIANGLES, count, index_type, reinterpret_cast<void*>(index_offset_bytes),
                             base_vertex);
}

}  // namespace attnlab::gui
