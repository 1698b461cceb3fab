// The tour's slides as the app writes them: one file per view in the chapter's order, in presentation type,
// into the folder given; afterwards the app is on the view, step and type it was on before.
#include "session_support.h"
#include "slide_export.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

TourChapter two_slide_chapter() {
    TourChapter c;
    c.id = "multi-head";
    c.view = "attention";
    c.slides = {"output"};
    return c;
}

// Frames until the export is done, as App runs them: advance before drawing, finish after rendering.
std::vector<std::string> run_export(SlideExport& slides, Session& s, ViewState& v, std::vector<View>* drawn) {
    std::vector<std::string> files;
    for (int frame = 0; frame < 100 && slides.pending(); ++frame) {
        if (auto png = slides.advance(s, v)) {
            files.push_back(*png);
            drawn->push_back(v.tab);  // the view the saved frame drew
            CHECK(v.settings.presentation);
        }
        slides.finish(s, v);
    }
    return files;
}

}  // namespace

TEST_CASE("the Slides button writes each slide view into the folder, and leaves the app where it was") {
    Session s = test::english_korean();
    s.run_to(3);  // the class is part-way through the pass
    ViewState v;
    v.tab = View::masks;  // looking at another view than the chapter's
    v.settings.presentation = false;
    SlideExport slides;
    slides.start(two_slide_chapter(), 3, "/home/teacher/Pictures/attnlab-slides", s, v);
    REQUIRE(slides.pending());
    std::vector<View> drawn;
    const auto files = run_export(slides, s, v, &drawn);
    REQUIRE(!slides.pending());
    CHECK(files == std::vector<std::string>{"/home/teacher/Pictures/attnlab-slides/tour-3-multi-head-1.png",
                                            "/home/teacher/Pictures/attnlab-slides/tour-3-multi-head-2.png"});
    CHECK(drawn == std::vector<View>{View::attention, View::output});
    CHECK(slides.written() == 2);
    CHECK(v.tab == View::masks);  // not the last slide's Output
    CHECK(s.timeline_cursor() == 3);
    CHECK_FALSE(v.settings.presentation);
}

TEST_CASE("the in-app slides go to a folder under the user's Pictures, named in full") {
    const std::string dir = default_slides_dir();
    CHECK(dir.front() == '/');
    CHECK(dir.ends_with("/Pictures/attnlab-slides"));
}

TEST_CASE("the menu bar names the slides' folder with ~ for the home folder, so it fits a 1280-wide bar") {
    CHECK(path_with_tilde("/home/teacher/Pictures/attnlab-slides", "/home/teacher") == "~/Pictures/attnlab-slides");
    CHECK(path_with_tilde("/home/teacher/Pictures/attnlab-slides", "/home/teacher/") == "~/Pictures/attnlab-slides");
    CHECK(path_with_tilde("/home/teacher", "/home/teacher") == "~");
    CHECK(path_with_tilde("/home/teachers/slides", "/home/teacher") == "/home/teachers/slides");
    CHECK(path_with_tilde("/srv/slides", "/home/teacher") == "/srv/slides");
    CHECK(path_with_tilde("/srv/slides", "") == "/srv/slides");
}
