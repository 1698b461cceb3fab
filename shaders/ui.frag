#version 330 core
// Text and shapes: the vertex colour times the texture (the font atlas, white where a shape is solid).
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_color;
out vec4 frag_color;

void main() {
    frag_color = v_color * texture(u_texture, v_uv);
}
