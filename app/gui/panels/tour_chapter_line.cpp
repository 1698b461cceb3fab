// The line over a tour chapter's title (see tour_chapter_line.h).
#include "panels/tour_chapter_line.h"

#include "panels/word_wrap.h"

namespace attnlab::gui {

namespace {

// "11 / 14", whole.
std::string count_text(int i, int n) {
    const std::string nb(kNoBreakSpace);
    return std::to_string(i) + nb + "/" + nb + std::to_string(n);
}

}  // namespace

std::string tour_chapter_line(const ChapterPlace& p) {
    const std::string nb(kNoBreakSpace), dot = "  ·" + nb;
    std::string line = p.chapter_word + nb + count_text(p.chapter, p.n_chapters);
    if (!p.part_title.empty()) line += dot + p.part_title + " " + count_text(p.part_index, p.part_size);
    return line + dot + "§" + p.section;
}

}  // namespace attnlab::gui
