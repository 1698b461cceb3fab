#version 330 core
// Colours one matrix cell per block of u_cell_px × u_cell_px pixels.
//   sequential (0): a viridis-like ramp over [u_min, u_max], for probabilities and norms
//   diverging  (1): blue – white – red, centred on 0 over [−u_max_abs, u_max_abs], for signed values
// Cells that are not finite (a masked score is −∞) or masked by u_mask are hatched grey.
uniform sampler2D u_values;   // R32F, one texel per cell
uniform sampler2D u_mask;     // R8, 0 = masked
uniform bool u_has_mask;
uniform int u_colormap;
uniform float u_min;
uniform float u_max;
uniform int u_cell_px;
uniform bool u_grid;
out vec4 frag_color;

vec3 sequential(float t) {
    const vec3 c0 = vec3(0.267, 0.005, 0.329);
    const vec3 c1 = vec3(0.229, 0.322, 0.546);
    const vec3 c2 = vec3(0.128, 0.567, 0.551);
    const vec3 c3 = vec3(0.369, 0.789, 0.383);
    const vec3 c4 = vec3(0.993, 0.906, 0.144);
    t = clamp(t, 0.0, 1.0) * 4.0;
    if (t < 1.0) return mix(c0, c1, t);
    if (t < 2.0) return mix(c1, c2, t - 1.0);
    if (t < 3.0) return mix(c2, c3, t - 2.0);
    return mix(c3, c4, t - 3.0);
}

vec3 diverging(float t) {  // t in [-1, 1]
    const vec3 blue = vec3(0.020, 0.188, 0.380);
    const vec3 light_blue = vec3(0.400, 0.660, 0.860);
    const vec3 white = vec3(0.970, 0.970, 0.970);
    const vec3 light_red = vec3(0.940, 0.520, 0.400);
    const vec3 red = vec3(0.404, 0.000, 0.051);
    t = clamp(t, -1.0, 1.0);
    if (t < -0.5) return mix(blue, light_blue, (t + 1.0) * 2.0);
    if (t < 0.0) return mix(light_blue, white, (t + 0.5) * 2.0);
    if (t < 0.5) return mix(white, light_red, t * 2.0);
    return mix(light_red, red, (t - 0.5) * 2.0);
}

void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    ivec2 cell = px / u_cell_px;
    ivec2 local = px - cell * u_cell_px;
    float v = texelFetch(u_values, cell, 0).r;
    bool masked = isnan(v) || isinf(v) || (u_has_mask && texelFetch(u_mask, cell, 0).r < 0.5);
    vec3 color;
    if (masked) {
        bool stripe = ((local.x + local.y) / max(1, u_cell_px / 4)) % 2 == 0;
        color = stripe ? vec3(0.42) : vec3(0.24);
    } else if (u_colormap == 0) {
        color = sequential((v - u_min) / max(u_max - u_min, 1e-12));
    } else {
        color = diverging(v / max(u_max, 1e-12));
    }
    // Grid lines between cells only, never along the outer edge.
    ivec2 n_cells = textureSize(u_values, 0);
    bool inner_x = local.x == u_cell_px - 1 && cell.x < n_cells.x - 1;
    bool inner_y = local.y == u_cell_px - 1 && cell.y < n_cells.y - 1;
    if (u_grid && (inner_x || inner_y)) color *= 0.55;
    frag_color = vec4(color, 1.0);
}
