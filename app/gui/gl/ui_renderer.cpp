// ImDrawData -> vertex and index buffers -> one draw per command, clipped by a scissor rectangle.
#include "gl/ui_renderer.h"

#include "gl/gl_platform.h"
#include "gl/shader_program.h"

#include <cstddef>
#include <cstdint>

namespace attnlab::gui {

Result<UiRenderer> UiRenderer::create(const std::string& shader_dir) {
    auto blended = build_shader_program(shader_dir + "/ui.vert", shader_dir + "/ui.frag");
    if (!blended) return blended.error();
    auto opaque = build_shader_program(shader_dir + "/ui.vert", shader_dir + "/ui_opaque.frag");
    if (!opaque) {
        glDeleteProgram(*blended);
        return opaque.error();
    }
    return UiRenderer(*blended, *opaque);
}

UiRenderer::UiRenderer(GLuint blended, GLuint opaque) : blended_(blended), opaque_(opaque) {
    glGenVertexArrays(1, &vao_);
    glGenBuffers(1, &vertex_buffer_);
    glGenBuffers(1, &index_buffer_);
    glBindVertexArray(vao_);
    glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer_);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_buffer_);
    const auto stride = static_cast<GLsizei>(sizeof(ImDrawVert));
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(ImDrawVert, pos)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(ImDrawVert, uv)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<void*>(offsetof(ImDrawVert, col)));
    glBindVertexArray(0);
    for (GLuint program : {blended_, opaque_}) {
        glUseProgram(program);
        glUniform1i(glGetUniformLocation(program, "u_texture"), 0);
    }
    glUseProgram(0);
}

UiRenderer::UiRenderer(UiRenderer&& o) noexcept
    : blended_(o.blended_),
      opaque_(o.opaque_),
      vao_(o.vao_),
      vertex_buffer_(o.vertex_buffer_),
      index_buffer_(o.index_buffer_) {
    o.blended_ = o.opaque_ = o.vao_ = o.vertex_buffer_ = o.index_buffer_ = 0;
}

UiRenderer::~UiRenderer() {
    if (vao_) glDeleteVertexArrays(1, &vao_);
    if (vertex_buffer_) glDeleteBuffers(1, &vertex_buffer_);
    if (index_buffer_) glDeleteBuffers(1, &index_buffer_);
    if (blended_) glDeleteProgram(blended_);
    if (opaque_) glDeleteProgram(opaque_);
}

void UiRenderer::set_up_state(const ImDrawData& data, int fb_width, int fb_height) const {
    glViewport(0, 0, fb_width, fb_height);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_STENCIL_TEST);
    glEnable(GL_SCISSOR_TEST);
    // Column-major: x ∈ [L, R] -> [-1, 1], y ∈ [T, B] -> [1, -1].
    const float L = data.DisplayPos.x, R = data.DisplayPos.x + data.DisplaySize.x;
    const float T = data.DisplayPos.y, B = data.DisplayPos.y + data.DisplaySize.y;
    const float projection[16] = {
        2.0f / (R - L), 0.0f, 0.0f, 0.0f,  0.0f, 2.0f / (T - B),    0.0f,
        0.0f,           0.0f, 0.0f, -1.0f, 0.0f, (R + L) / (L - R), (T + B) / (B - T),
        0.0f,           1.0f,
    };
    for (GLuint program : {opaque_, blended_}) {  // blended_ stays bound
        glUseProgram(program);
        glUniformMatrix4fv(glGetUniformLocation(program, "u_projection"), 1, GL_FALSE, projection);
    }
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(vao_);                        // with index_buffer_ as its element buffer
    glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer_);  // not part of the vertex array's state
}

void UiRenderer::render(const ImDrawData& data, const std::function<bool(ImTextureID)>& is_opaque) {
    const int fb_width = static_cast<int>(data.DisplaySize.x * data.FramebufferScale.x);
    const int fb_height = static_cast<int>(data.DisplaySize.y * data.FramebufferScale.y);
    if (fb_width <= 0 || fb_height <= 0) return;
    set_up_state(data, fb_width, fb_height);
    bool opaque = false;  // which program is bound
    const GLenum index_type = sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
    for (int n = 0; n < data.CmdListsCount; ++n) {
        const ImDrawList& list = *data.CmdLists[n];
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(list.VtxBuffer.Size) * sizeof(ImDrawVert),
                     list.VtxBuffer.Data, GL_STREAM_DRAW);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(list.IdxBuffer.Size) * sizeof(ImDrawIdx),
                     list.IdxBuffer.Data, GL_STREAM_DRAW);
        for (const ImDrawCmd& cmd : list.CmdBuffer) {
            if (cmd.UserCallback) {
                if (cmd.UserCallback == ImDrawCallback_ResetRenderState) {
                    set_up_state(data, fb_width, fb_height);
                    opaque = false;
                } else {
                    cmd.UserCallback(&list, &cmd);
                }
                continue;
            }
            // The clip rectangle in framebuffer pixels; GL's scissor counts y from the bottom.
            const ImVec2 scale = data.FramebufferScale;
            const float x0 = (cmd.ClipRect.x - data.DisplayPos.x) * scale.x;
            const float y0 = (cmd.ClipRect.y - data.DisplayPos.y) * scale.y;
            const float x1 = (cmd.ClipRect.z - data.DisplayPos.x) * scale.x;
            const float y1 = (cmd.ClipRect.w - data.DisplayPos.y) * scale.y;
            if (x1 <= x0 || y1 <= y0) continue;
            glScissor(static_cast<GLint>(x0), static_cast<GLint>(fb_height - y1), static_cast<GLsizei>(x1 - x0),
                      static_cast<GLsizei>(y1 - y0));
            const bool image = is_opaque(cmd.GetTexID());
            if (image != opaque) {
                opaque = image;
                glUseProgram(opaque ? opaque_ : blended_);
                if (opaque)
                    glDisable(GL_BLEND);
                else
                    glEnable(GL_BLEND);
            }
            glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<intptr_t>(cmd.GetTexID())));
            draw_imgui_elements(static_cast<GLsizei>(cmd.ElemCount), index_type, cmd.IdxOffset * sizeof(ImDrawIdx),
                                static_cast<GLint>(cmd.VtxOffset));
        }
    }
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_SCISSOR_TEST);
}

}  // namespace attnlab::gui
