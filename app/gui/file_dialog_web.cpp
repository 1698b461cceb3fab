// The page's file chooser: the browser's own (an <input type="file"> that index.html opens), for one model file
// or a Hugging Face folder's files picked together, or one data file to train on. The browser reads them into the page's file system
// (/uploads/N/), then take() reports the model among them (model_file_among). No thread and no program to run:
// the command zenity would get is not used.
#include "file_dialog.h"

#include "dropped_files.h"

#include <emscripten.h>

#include <cstdlib>
#include <sstream>

namespace attnlab::gui {

struct FileDialog::Shared {  // the page keeps the chooser's state: attnlabPage.picked
    FilePick pick = FilePick::model;
};

namespace {

EM_JS(void, page_pick_files, (int data), { attnlabPage.pickFiles(data !== 0); });

// The picked files' paths, one a line, once the browser has read them all; "" when the chooser was closed without
// a choice; nullptr while it is open. The caller frees the string.
EM_JS(char*, page_take_picked, (), {
    const picked = attnlabPage.takePicked();
    if (picked === null) return 0;
    return allocateUTF8(picked.join("\n"));
});

}  // namespace

FileDialog::~FileDialog() = default;

bool FileDialog::start(std::vector<std::string>, FilePick pick) {
    if (shared_) return false;
    shared_ = std::make_shared<Shared>(Shared{pick});
    page_pick_files(pick == FilePick::data ? 1 : 0);
    return true;
}

std::optional<FileDialogResult> FileDialog::take() {
    if (!shared_) return std::nullopt;
    char* picked = page_take_picked();
    if (!picked) return std::nullopt;
    std::vector<std::string> paths;
    std::istringstream lines{std::string(picked)};
    std::free(picked);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) paths.push_back(line);
    const FilePick pick = shared_->pick;
    shared_.reset();
    if (pick == FilePick::data)
        return paths.empty() ? FileDialogResult{FileDialogResult::Outcome::cancelled, "", ""}
                             : FileDialogResult{FileDialogResult::Outcome::chosen, paths.front(), ""};
    const std::optional<std::string> model = model_file_among(paths);
    if (!model) return FileDialogResult{FileDialogResult::Outcome::cancelled, "", ""};
    return FileDialogResult{FileDialogResult::Outcome::chosen, *model, ""};
}

std::vector<std::string> FileDialog::model_chooser(const std::string& title) { return {title}; }
std::vector<std::string> FileDialog::data_chooser(const std::string& title) { return {title}; }

}  // namespace attnlab::gui
