// A native file chooser (zenity) run on a worker thread, so the window keeps drawing while the
// dialog is open. The worker starts the process and reads its output; the UI thread polls take()
// once a frame. Neither the worker nor this class touches ImGui, GLFW or GL.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace attnlab::gui {

struct FileDialogResult {
    enum class Outcome {
        chosen,       // `path` is the file chosen
        cancelled,    // closed without a choice
        unavailable,  // the program is not installed
        failed,       // it could not run or ended oddly: `message` says how
    };
    Outcome outcome = Outcome::cancelled;
    std::string path;
    std::string message;
};

// What the chooser is for: a model (a file, or a Hugging Face folder's files), or one data file of any kind.
enum class FilePick { model, data };

class FileDialog {
public:
    FileDialog() = default;
    ~FileDialog();  // closes a dialog that is still open (SIGTERM) and joins the worker
    FileDialog(const FileDialog&) = delete;
    FileDialog& operator=(const FileDialog&) = delete;

    // Runs `command` (a program on PATH and its arguments) on a worker thread. The program prints
    // the chosen path on stdout and exits 0, or exits 1 when cancelled (zenity's contract).
    // False, and nothing started, while a dialog is already open. The page has no programs: it opens the
    // browser's chooser for `pick` instead (the command's filters say the same on the desktop).
    bool start(std::vector<std::string> command, FilePick pick = FilePick::model);
    // Started, and its result not yet taken.
    bool pending() const { return shared_ != nullptr; }
    // The result, once, after the dialog closed; nullopt while it is open or when none was started.
    std::optional<FileDialogResult> take();

    // zenity's file chooser for models: *.safetensors, or a Hugging Face folder's config.json.
    static std::vector<std::string> model_chooser(const std::string& title);
    // zenity's file chooser for a training run's data: text, token ids or pairs (*.txt, *.tsv, *.ids), or any file.
    static std::vector<std::string> data_chooser(const std::string& title);

private:
    struct Shared;  // what the worker and the UI thread share, under its mutex
    static void work(const std::shared_ptr<Shared>& shared, const std::vector<std::string>& command);

    std::shared_ptr<Shared> shared_;
    std::thread worker_;
};

}  // namespace attnlab::gui
