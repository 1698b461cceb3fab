// Word wrapping that breaks only at spaces (see word_wrap.h).
#include "panels/word_wrap.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

namespace attnlab::gui {

namespace {

// `text` with each no-break space a plain one.
std::string with_plain_spaces(std::string_view text) {
    std::string out(text);
    for (size_t at = out.find(kNoBreakSpace); at != std::string::npos; at = out.find(kNoBreakSpace, at))
        out.replace(at, kNoBreakSpace.size(), " ");
    return out;
}

// Appends one paragraph (no '\n' in it) to `out`, wrapped at its spaces.
void wrap_paragraph(std::string_view para, float width, const std::function<float(std::string_view)>& measure,
                    std::string& out) {
    size_t line_start = out.size();
    size_t pos = 0;
    while (pos < para.size()) {
        const size_t word_start = para.find_first_not_of(' ', pos);
        if (word_start == std::string_view::npos) break;
        size_t word_end = para.find(' ', word_start);
        if (word_end == std::string_view::npos) word_end = para.size();
        const std::string_view word = para.substr(word_start, word_end - word_start);
        const std::string_view spaces = para.substr(pos, word_start - pos);
        if (out.size() == line_start) {
            out.append(spaces);  // a paragraph's leading spaces stay
        } else {
            std::string candidate = out.substr(line_start);
            candidate.append(spaces).append(word);
            if (measure(with_plain_spaces(candidate)) > width) {
                out.push_back('\n');
                line_start = out.size();
            } else {
                out.append(spaces);
            }
        }
        out.append(word);
        pos = word_end;
    }
}

}  // namespace

std::string wrap_at_spaces(std::string_view text, float width, const std::function<float(std::string_view)>& measure) {
    std::string out;
    size_t start = 0;
    while (true) {
        const size_t end = text.find('\n', start);
        wrap_paragraph(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start), width,
                       measure, out);
        if (end == std::string_view::npos) break;
        out.push_back('\n');
        start = end + 1;
    }
    return with_plain_spaces(out);
}

void text_wrapped_at_spaces(const char* text) {
    // To the pushed wrap position, else ImGui's edge (the work rect's: a table cell's, a column's) but never past the
    // visible content region, left of the vertical scrollbar: in a window that scrolls sideways (every view) ImGui's
    // own edge is the content's width, under the scrollbar or beyond it.
    const ImGuiWindow* window = ImGui::GetCurrentWindowRead();
    const float visible_right = std::min(window->WorkRect.Max.x, window->ContentRegionRect.Max.x);
    const float right =
        window->DC.TextWrapPos > 0.0f ? window->Pos.x - window->Scroll.x + window->DC.TextWrapPos : visible_right;
    const float width = std::max(right - window->DC.CursorPos.x, 1.0f);
    const std::string lines = wrap_at_spaces(
        text, width, [](std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; });
    ImGui::TextUnformatted(lines.c_str());
}

}  // namespace attnlab::gui
