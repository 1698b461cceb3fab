// A framebuffer object with one colour renderbuffer.
#include "gl/offscreen_target.h"

#include <string>
#include <utility>

namespace attnlab::gui {

Result<OffscreenTarget> OffscreenTarget::create(int width, int height) {
    OffscreenTarget t;
    t.width_ = width;
    t.height_ = height;
    glGenFramebuffers(1, &t.framebuffer_);
    glGenRenderbuffers(1, &t.colour_);
    glBindRenderbuffer(GL_RENDERBUFFER, t.colour_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t.colour_);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return Error{"could not make an offscreen picture of " + std::to_string(width) + "x" + std::to_string(height)};
    return t;
}

OffscreenTarget::OffscreenTarget(OffscreenTarget&& other) noexcept
    : framebuffer_(std::exchange(other.framebuffer_, 0)),
      colour_(std::exchange(other.colour_, 0)),
      width_(other.width_),
      height_(other.height_) {}

OffscreenTarget& OffscreenTarget::operator=(OffscreenTarget&& other) noexcept {
    std::swap(framebuffer_, other.framebuffer_);
    std::swap(colour_, other.colour_);
    std::swap(width_, other.width_);
    std::swap(height_, other.height_);
    return *this;
}

OffscreenTarget::~OffscreenTarget() {
    if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
    if (colour_) glDeleteRenderbuffers(1, &colour_);
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_); }

void OffscreenTarget::unbind() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

void OffscreenTarget::copy_to_window() const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    unbind();
}

}  // namespace attnlab::gui
