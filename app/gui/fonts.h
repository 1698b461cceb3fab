// The UI font: NanumGothic (Hangul + Latin) from Debian's fonts-nanum, or Noto CJK, at a
// pixel size, with formula symbols merged from DejaVu Sans; ImGui's built-in font is the
// fallback, and the caller is told so.
#pragma once

#include <string>

namespace attnlab::gui {

// Rebuilds ImGui's font atlas at `pixel_size`. Returns the file used, or "" for the fallback.
std::string load_ui_font(float pixel_size);

}  // namespace attnlab::gui
