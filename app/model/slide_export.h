// SlideExport: a tour chapter's slides as the app writes them, one view per PNG (the chapter's view as its
// setup left it, then each of its slide views after the whole forward pass), in presentation type, into a
// folder the user is told. When the last is written, the view, the stepper's cursor and the presentation
// setting are put back as they were: exporting never moves the class away from where it was.
#pragma once

#include "session.h"
#include "teach/tour.h"
#include "view_state.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// A slide's size in pixels, whatever the window's (the app renders slides offscreen).
inline constexpr int kSlideWidth = 1920, kSlideHeight = 1080;

class SlideExport {
public:
    // Queues `chapter`'s slides (its number `chapter_number`, 1-based) for `dir`, and remembers what to put back.
    void start(const TourChapter& chapter, int chapter_number, std::string dir, const Session& session,
               ViewState& view);
    // True from start() until finish() put the app back.
    bool pending() const { return active_; }

    // Before each frame's drawing: shows the next slide's view (running the pass for every slide after the
    // first) and, once it has settled for kSettleFrames frames, returns the file this frame is to be saved as.
    std::optional<std::string> advance(Session& session, ViewState& view);
    // After the frame that saved the last slide was rendered: the view, cursor and presentation as they were.
    // True if it did (once per export).
    bool finish(Session& session, ViewState& view);

    const std::string& dir() const { return dir_; }
    int written() const { return number_; }

    static constexpr int kSettleFrames = 3;  // a view's layout settles in two frames; the third is saved

private:
    std::vector<View> views_;  // still to write, front first
    std::string dir_, chapter_id_;
    int chapter_number_ = 0, number_ = 0, wait_ = 0;
    bool active_ = false;
    // What finish() puts back.
    View tab_ = View::attention;
    size_t cursor_ = 0;
    bool presentation_ = false;
};

// Where the app's Slides button writes: ~/Pictures/attnlab-slides ("attnlab-slides" in the working directory
// without a home), as an absolute path for the status line.
std::string default_slides_dir();

// `path` as the menu bar shows it: "~" for `home` when the path lies under it ("/home/t/Pictures/x" ->
// "~/Pictures/x"), else unchanged; an empty `home` changes nothing.
std::string path_with_tilde(const std::string& path, const std::string& home);

}  // namespace attnlab::gui
