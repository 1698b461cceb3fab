// Opening model files for the whole app: a typed path, a dropped file, a bundled or recent file,
// or the file dialog, which runs beside the window. The file is read and its trace run on a worker
// (BackgroundOpen), so the window keeps drawing, with a line that says what it waits for, until the
// new model replaces the old one. A failure becomes a notice in plain words
// ("notes.txt is not a safetensors model file", the loader's message in its tooltip) that the app
// shows at the top of every view until it is dismissed or a model opens.
#pragma once

#include "background_open.h"
#include "file_dialog.h"
#include "open_error.h"
#include "panels/panel_context.h"
#include "session.h"
#include "view_state.h"

#include <optional>
#include <string>

namespace attnlab::gui {

class ModelOpener {
public:
    explicit ModelOpener(WorkMode mode = WorkMode::own_thread) : background_(mode) {}
    // Starts opening `path` for the session (poll() swaps it in). On failure the notice explains it (where the
    // user is looking, not the Output view). An open asked for while one runs waits for it to finish.
    void open(const Session& session, const std::string& path);
    bool opening() const { return background_.running(); }
    const BackgroundOpen& background() const { return background_; }
    // Starts the file dialog (titled `title`), unless one is open.
    void browse(const std::string& title);
    // Once a frame: swaps in a finished open (or explains its failure), starts one the dialog chose or that
    // waited, or notes why nothing was chosen.
    void poll(Session& session, ViewState& view);
    // Once a frame, before poll(): between frames (WorkMode::between_frames) runs an open that waits.
    void pump(std::chrono::milliseconds budget) { background_.pump(budget); }
    bool browsing() const { return dialog_.pending(); }

    const std::optional<OpenProblem>& problem() const { return problem_; }
    void show(OpenProblem problem) { problem_ = std::move(problem); }  // a failure found elsewhere (at launch)
    void dismiss() { problem_.reset(); }
    // The last dialog's outcome when it opened nothing (English, for tr), or nullptr; and its detail.
    const char* dialog_note() const { return dialog_note_; }
    const std::string& dialog_detail() const { return dialog_detail_; }

private:
    void finish(Session& session, ViewState& view, Result<Session> opened);

    FileDialog dialog_;
    BackgroundOpen background_;
    std::optional<std::string> waiting_;  // a path asked for while another open ran
    std::optional<OpenProblem> problem_;
    const char* dialog_note_ = nullptr;
    std::string dialog_detail_;
};

// "Opening gpt2: reading the weights (0.3 s)", then "Opening gpt2: running the forward pass, step 57 of 213
// (2.4 s)", in English or Korean, while an open runs.
std::string opening_text(const BackgroundOpen& background, bool korean);

// The notice's one line, in English or Korean.
std::string open_problem_text(const OpenProblem& problem, bool korean);

// The notice, if there is one, as a band across the current window where the cursor is, pushing what follows
// down (it covers nothing): the plain line, "(?)" with the detail on hover, and × to dismiss it; while a model
// opens, that line and its bar instead.
void draw_open_problem(ModelOpener& opener, bool korean);

// The App's opener, as the panels reach it: the App puts its address in the panel caches every frame.
ModelOpener& model_opener(PanelContext& ctx);

}  // namespace attnlab::gui
