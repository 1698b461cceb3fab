// The line over a tour chapter's title: "Chapter 12 / 14  ·  From the paper to today's models 4 / 6  ·  §3.5".
// Its counts and the section are joined by no-break spaces, so wrapped with wrap_at_spaces it breaks between its
// parts and inside the part's title, never inside "4 / 6" or "§3.5".
#pragma once

#include <string>

namespace attnlab::gui {

struct ChapterPlace {
    std::string chapter_word;  // "Chapter", in the UI's language
    int chapter = 1, n_chapters = 1;
    std::string part_title;  // empty: the chapter is in no part
    int part_index = 1, part_size = 1;
    std::string section;  // "3.2.1"
};

std::string tour_chapter_line(const ChapterPlace& place);

}  // namespace attnlab::gui
