// Atlas alpha (w × h bytes) -> GL_R8 texture read as white with that alpha.
#include "gl/font_texture.h"

#include "gl/gl_platform.h"

#include <imgui.h>

#include <cstdint>

namespace attnlab::gui {

FontTexture::~FontTexture() {
    if (texture_) glDeleteTextures(1, &texture_);
}

void FontTexture::upload(ImFontAtlas& atlas) {
    unsigned char* alpha = nullptr;
    int width = 0, height = 0;
    atlas.GetTexDataAsAlpha8(&alpha, &width, &height);
    if (!texture_) glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    upload_white_alpha_texture(width, height, alpha);
    atlas.SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(texture_)));
}

}  // namespace attnlab::gui
