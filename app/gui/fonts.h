// The UI font: NanumGothic (Hangul + Latin) from Debian's fonts-nanum, or Noto CJK, at a
// pixel size, with symbols merged from DejaVu Sans; ImGui's built-in font is the fallback, and
// the caller is told so. A character no font has is drawn as U+FFFD (�), never as a plain "?".
#pragma once

#include <string>
#include <string_view>

namespace attnlab::gui {

// Rebuilds ImGui's font atlas at `pixel_size`. Returns the file used, or "" for the fallback.
std::string load_ui_font(float pixel_size);

// The code points of `utf8` the UI font cannot show as themselves, as "U+1F34E U+200D": those missing
// from the atlas (every one above U+FFFF: Debian's ImGui keeps 16-bit characters), and the
// invisible or stacked ones (combining marks, zero-width joiners). "" when all show. Needs the
// current ImGui context's atlas.
std::string hidden_code_points(std::string_view utf8);

}  // namespace attnlab::gui
