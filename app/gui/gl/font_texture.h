// The UI font atlas as a one-channel texture. ImGui's OpenGL3 backend uploads the atlas as RGBA;
// with every Hangul syllable that is 2048×4096×4 = 32 MiB, which every frame's text samples from.
// Stored as R8 and swizzled to (1, 1, 1, r), the same atlas is 8 MiB and draws identically.
#pragma once

#include "gl/gl.h"

struct ImFontAtlas;

namespace attnlab::gui {

class FontTexture {
public:
    FontTexture() = default;
    FontTexture(const FontTexture&) = delete;
    FontTexture& operator=(const FontTexture&) = delete;
    ~FontTexture();

    // Builds the atlas's fonts if needed, uploads them, and sets the atlas's texture id.
    void upload(ImFontAtlas& atlas);

private:
    GLuint texture_ = 0;
};

}  // namespace attnlab::gui
