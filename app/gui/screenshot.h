// Reads back the current framebuffer (or a rectangle of it) and writes it as a PNG, atomically.
#pragma once

#include "result.h"

#include <string>

namespace attnlab::gui {

// x, y, width, height in framebuffer pixels with y measured from the top.
Status save_framebuffer_png(const std::string& path, int x, int y, int width, int height);

}  // namespace attnlab::gui
