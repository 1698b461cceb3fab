// libFuzzer target: the guided tour's assets/tour/tour.json read by parse_tour (core/teach/tour.h).
// Properties: a file that is refused gets one line of UTF-8 starting with the file's name; a tour that is read
// has chapters, each with a unique id, a section, a model, a view and all four texts in both languages, and each
// chapter of a part knows its place among the part's size.
#include "fuzz_common.h"
#include "teach/tour.h"
#include "text/utf8.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

using namespace attnlab;

namespace {

constexpr const char* kFile = "tour.json";

void check_chapter(const TourChapter& c) {
    const std::string where = "chapter " + c.id;
    FUZZ_CHECK(!c.id.empty() && !c.section.empty() && !c.model.empty() && !c.view.empty(), where + " lacks a field");
    for (const TourText& t : c.text)
        FUZZ_CHECK(!t.title.empty() && !t.look.empty() && !t.task.empty() && !t.done.empty(), where + " lacks a text");
    if (c.part.empty()) {
        FUZZ_CHECK(c.part_index == 0 && c.part_size == 0, where + " has a place in no part");
    } else {
        FUZZ_CHECK(c.part_index >= 0 && c.part_index < c.part_size, where + " stands outside its part");
        FUZZ_CHECK(!c.part_title[0].empty() && !c.part_title[1].empty(), where + "'s part has no title");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto tour = parse_tour(text, kFile);
    if (!tour) {
        const std::string& m = tour.error().message;
        FUZZ_CHECK(is_one_line(m), "error is not one line: " + m);
        FUZZ_CHECK(is_valid_utf8(m), "error is not UTF-8");
        FUZZ_CHECK(m.starts_with(kFile), "error does not name the file: " + m);
        return 0;
    }
    FUZZ_CHECK(!tour->empty(), "a tour without chapters was read");
    std::set<std::string> ids;
    for (const TourChapter& c : *tour) {
        check_chapter(c);
        FUZZ_CHECK(ids.insert(c.id).second, "two chapters have the id " + c.id);
    }
    return 0;
}
