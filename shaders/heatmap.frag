#version 330 core
// Colours a u_size-pixel tile at u_origin, each matrix cell an equal block of it (to within a pixel).
//   sequential (0): a viridis-like ramp over [u_min, u_max], for probabilities and norms
//   diverging  (1): blue – white – red, centred on 0 over [−u_max_abs, u_max_abs], for signed values
// Cells that are not finite (a masked score is −∞) or masked by u_mask are hatched grey.
uniform sampler2D u_values;   // R32F, one texel per cell
uniform sampler2D u_mask;     // R8, 0 = masked
uniform bool u_has_mask;
uniform int u_colormap;
uniform float u_min;
uniform float u_max;
uniform ivec2 u_origin;  // the tile's corner in the target, in pixels
uniform ivec2 u_size;    // the tile's size in pixels
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
    ivec2 n_cells = textureSize(u_values, 0);
    ivec2 px = ivec2(gl_FragCoord.xy) - u_origin;
    ivec2 cell = px * n_cells / u_size;
    float v = texelFetch(u_values, cell, 0).r;
    bool masked = isnan(v) || isinf(v) || (u_has_mask && texelFetch(u_mask, cell, 0).r < 0.5);
    vec3 color;
    if (masked) {
        int cell_px = min(u_size.x / n_cells.x, u_size.y / n_cells.y);
        // Stripes at least 2 pixels wide: 1-pixel ones (a max-pooled 1,024-token head) turn to moiré when drawn a
        // fraction of a pixel off.
        bool stripe = ((px.x + px.y) / max(2, cell_px / 4)) % 2 == 0;
        color = stripe ? vec3(0.42) : vec3(0.24);
    } else if (u_colormap == 0) {
        color = sequential((v - u_min) / max(u_max - u_min, 1e-12));
    } else {
        color = diverging(v / max(u_max, 1e-12));
    }
    // Grid lines on each cell's last pixel, between cells only, never along the outer edge.
    ivec2 next = (px + 1) * n_cells / u_size;
    bool inner_x = next.x != cell.x && cell.x < n_cells.x - 1;
    bool inner_y = next.y != cell.y && cell.y < n_cells.y - 1;
    if (u_grid && (inner_x || inner_y)) color *= 0.55;
    frag_color = vec4(color, 1.0);
}
