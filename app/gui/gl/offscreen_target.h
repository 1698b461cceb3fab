// An offscreen framebuffer of a fixed size (an RGBA8 renderbuffer), for frames that are pictures rather than
// the window: a tour slide is 1920×1080 whatever the window's size. While bound, drawing and
// save_framebuffer_png go to it.
#pragma once

#include "gl/gl.h"
#include "result.h"

namespace attnlab::gui {

class OffscreenTarget {
public:
    static Result<OffscreenTarget> create(int width, int height);
    OffscreenTarget(OffscreenTarget&& other) noexcept;
    OffscreenTarget& operator=(OffscreenTarget&& other) noexcept;
    OffscreenTarget(const OffscreenTarget&) = delete;
    OffscreenTarget& operator=(const OffscreenTarget&) = delete;
    ~OffscreenTarget();

    void bind() const;     // draws and reads go here
    static void unbind();  // back to the window's framebuffer
    // Copies the picture onto the window's framebuffer at its lower left corner; the window's framebuffer is
    // bound after.
    void copy_to_window() const;
    int width() const { return width_; }
    int height() const { return height_; }

private:
    OffscreenTarget() = default;
    GLuint framebuffer_ = 0, colour_ = 0;
    int width_ = 0, height_ = 0;
};

}  // namespace attnlab::gui
