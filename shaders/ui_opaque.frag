#version 330 core
// An opaque image (a heatmap): the texture alone, drawn with blending off. A shader this simple is
// one llvmpipe can run on its fast path, at about half the cost per pixel of ui.frag with blending.
uniform sampler2D u_texture;
in vec2 v_uv;
out vec4 frag_color;

void main() {
    frag_color = texture(u_texture, v_uv);
}
