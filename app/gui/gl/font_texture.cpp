// Atlas alpha (w × h bytes) -> GL_R8 texture read as white with that alpha.
#include "gl/font_texture.h"

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
    const GLint white_with_alpha[] = {GL_ONE, GL_ONE, GL_ONE, GL_RED};
    glTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, white_with_alpha);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, width, height, 0, GL_RED, GL_UNSIGNED_BYTE, alpha);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    atlas.SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(texture_)));
}

}  // namespace attnlab::gui
