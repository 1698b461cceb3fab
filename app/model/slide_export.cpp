// The slide queue: one view per file, settled, then the app put back as it was.
#include "slide_export.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>

namespace attnlab::gui {

void SlideExport::start(const TourChapter& chapter, int chapter_number, std::string dir, const Session& session,
                        ViewState& view) {
    views_.clear();
    View v;
    if (view_from_id(chapter.view, v)) views_.push_back(v);
    for (const std::string& s : chapter.slides)
        if (view_from_id(s, v)) views_.push_back(v);
    if (!active_) {  // a second click while writing keeps the first one's state to put back
        tab_ = view.tab;
        cursor_ = session.timeline_cursor();
        presentation_ = view.settings.presentation;
    }
    view.settings.presentation = true;  // a slide is read from the back of a room
    dir_ = std::move(dir);
    chapter_id_ = chapter.id;
    chapter_number_ = chapter_number;
    number_ = 0;
    wait_ = 0;
    active_ = !views_.empty();
    if (!active_) view.settings.presentation = presentation_;
}

std::optional<std::string> SlideExport::advance(Session& session, ViewState& view) {
    if (views_.empty()) return std::nullopt;
    if (wait_ == 0) {
        if (number_ > 0) session.run_to(session.stepper().size());  // later slides show the whole pass
        view.tab = views_.front();
        wait_ = kSettleFrames;
    }
    if (--wait_ > 0) return std::nullopt;
    char name[128];
    std::snprintf(name, sizeof name, "/tour-%d-%s-%d.png", chapter_number_, chapter_id_.c_str(), ++number_);
    views_.erase(views_.begin());
    return dir_ + name;
}

bool SlideExport::finish(Session& session, ViewState& view) {
    if (!active_ || !views_.empty() || wait_ > 0) return false;
    active_ = false;
    view.tab = tab_;
    view.settings.presentation = presentation_;
    if (session.timeline_cursor() != cursor_) session.run_to(cursor_);
    return true;
}

std::string default_slides_dir() {
    namespace fs = std::filesystem;
    const char* home = std::getenv("HOME");
    std::error_code ec;
    const fs::path base = home && *home ? fs::path(home) / "Pictures" : fs::current_path(ec);
    return (base / "attnlab-slides").string();
}

std::string path_with_tilde(const std::string& path, const std::string& home) {
    std::string base = home;
    while (base.size() > 1 && base.back() == '/') base.pop_back();
    if (base.empty() || base == "/" || !path.starts_with(base)) return path;
    const std::string rest = path.substr(base.size());
    if (!rest.empty() && rest.front() != '/') return path;  // "/home/tom" is not under "/home/to"
    return "~" + rest;
}

}  // namespace attnlab::gui
