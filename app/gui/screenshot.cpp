// glReadPixels -> flip rows -> stb_image_write PNG in memory -> atomic file write.
#include "screenshot.h"

#include "gl/gl.h"
#include "io/file_bytes.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <vector>

namespace attnlab::gui {

namespace {

void append_bytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(context);
    const auto* bytes = static_cast<const uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

Status save_framebuffer_png(const std::string& path, int x, int y, int width, int height) {
    if (width <= 0 || height <= 0) return Error{"nothing to capture"};
    GLint viewport[4];
    glGetIntegerv(GL_VIEWPORT, viewport);
    const int fb_height = viewport[3];
    std::vector<uint8_t> pixels(static_cast<size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    GLint offscreen = 0;  // an offscreen target's colour (OffscreenTarget::bind), else the window's back buffer
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &offscreen);
    glReadBuffer(offscreen ? GL_COLOR_ATTACHMENT0 : GL_BACK);
    glReadPixels(x, fb_height - y - height, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    std::vector<uint8_t> flipped(pixels.size());
    const size_t row = static_cast<size_t>(width) * 4;
    for (int r = 0; r < height; ++r) std::copy_n(pixels.data() + (height - 1 - r) * row, row, flipped.data() + r * row);
    for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;  // opaque
    std::vector<uint8_t> png;
    if (!stbi_write_png_to_func(append_bytes, &png, width, height, 4, flipped.data(), static_cast<int>(row)))
        return Error{"could not encode " + path + " as PNG"};
    return io::write_file_atomic(path, png);
}

}  // namespace attnlab::gui
