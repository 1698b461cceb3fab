// Word wrapping that breaks only at spaces. ImGui's own wrapping also breaks after '.' and ',',
// which splits numbers such as "0.95" across two lines ("0." / "95").
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace attnlab::gui {

inline constexpr std::string_view kNoBreakSpace = "\u00A0";  // U+00A0, two bytes of UTF-8

// `text` with each run of spaces where a line must end replaced by '\n', so that every line is at most
// `width` wide as `measure` reckons it; a word wider than `width` keeps a line to itself. Newlines already
// in `text` are kept. A no-break space (kNoBreakSpace) joins its neighbours into one word ("3 / 6" stays whole)
// and comes out as a plain space: fonts may lack its glyph.
std::string wrap_at_spaces(std::string_view text, float width, const std::function<float(std::string_view)>& measure);

// ImGui::TextWrapped, breaking only at spaces: to the pushed wrap position (PushTextWrapPos), else the right edge
// of what shows of the window (left of its vertical scrollbar, even where the content is wider and scrolls).
void text_wrapped_at_spaces(const char* text);

}  // namespace attnlab::gui
