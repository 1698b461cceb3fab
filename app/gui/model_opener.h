// Opening model files for the whole app: a typed path, a dropped file, a bundled or recent file,
// or the file dialog, which runs beside the window. A failure becomes a notice in plain words
// ("notes.txt is not a safetensors model file", the loader's message in its tooltip) that the app
// shows at the top of every view until it is dismissed or a model opens.
#pragma once

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
    // Opens `path` into the session. On failure the notice explains it and the session's error is
    // cleared (the notice says it where the user is looking, not the Output view).
    bool open(Session& session, ViewState& view, const std::string& path);
    // Starts the file dialog (titled `title`), unless one is open.
    void browse(const std::string& title);
    // Once a frame: opens what the dialog chose, or notes why nothing was chosen.
    void poll(Session& session, ViewState& view);
    bool browsing() const { return dialog_.pending(); }

    const std::optional<OpenProblem>& problem() const { return problem_; }
    void show(OpenProblem problem) { problem_ = std::move(problem); }  // a failure found elsewhere (at launch)
    void dismiss() { problem_.reset(); }
    // The last dialog's outcome when it opened nothing (English, for tr), or nullptr; and its detail.
    const char* dialog_note() const { return dialog_note_; }
    const std::string& dialog_detail() const { return dialog_detail_; }

private:
    FileDialog dialog_;
    std::optional<OpenProblem> problem_;
    const char* dialog_note_ = nullptr;
    std::string dialog_detail_;
};

// The notice's one line, in English or Korean.
std::string open_problem_text(const OpenProblem& problem, bool korean);

// The notice, if there is one, as a small window near the top of the rectangle (x, y, w): the
// plain line, "(?)" with the detail on hover, and × to dismiss it.
void draw_open_problem(ModelOpener& opener, bool korean, float x, float y, float w);

// The App's opener, as the panels reach it: the App puts its address in the panel caches every frame.
ModelOpener& model_opener(PanelContext& ctx);

}  // namespace attnlab::gui
