// Opening models, the file dialog's results, and the failure notice drawn above the views.
#include "model_opener.h"

#include "i18n.h"

#include <imgui.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace attnlab::gui {

namespace {

// The notice's wording per case; "%s" is the file's or folder's name.
const char* problem_format(OpenProblem::Kind kind) {
    using Kind = OpenProblem::Kind;
    switch (kind) {
        case Kind::missing: return tr_noop("%s was not found");
        case Kind::unreadable: return tr_noop("%s cannot be read");
        case Kind::empty_file: return tr_noop("%s is an empty file, not a model");
        case Kind::image: return tr_noop("%s is an image, not a model file");
        case Kind::not_safetensors: return tr_noop("%s is not a safetensors model file");
        case Kind::damaged_safetensors: return tr_noop("%s is damaged: its safetensors header cannot be read");
        case Kind::not_a_model: return tr_noop("%s is a safetensors file, but not a model this app can open");
        case Kind::folder_without_config: return tr_noop("%s is a folder without config.json");
        case Kind::folder_without_weights: return tr_noop("%s has config.json but no model.safetensors");
        case Kind::unsupported_folder: return tr_noop("%s is a model folder this app cannot open");
    }
    return "%s";
}

// A band across the window at the cursor, `body` drawn in it on `background` within a `border`; the cursor ends
// under it, so what follows moves down rather than under it.
template <class Body>
void notice_band(ImVec4 background, ImVec4 border, Body body) {
    const float em = ImGui::GetFontSize();
    const ImVec2 pad(0.7f * em, 0.45f * em);
    const ImVec2 top_left = ImGui::GetCursorScreenPos();
    const float width = std::max(ImGui::GetContentRegionAvail().x, 10.0f * em);
    ImDrawList& list = *ImGui::GetWindowDrawList();
    list.ChannelsSplit(2);  // the body in front, its background (sized once the body is drawn) behind
    list.ChannelsSetCurrent(1);
    ImGui::SetCursorScreenPos(ImVec2(top_left.x + pad.x, top_left.y + pad.y));
    ImGui::BeginGroup();
    body(width - 2.0f * pad.x);
    ImGui::EndGroup();
    const ImVec2 bottom_right(top_left.x + width, ImGui::GetItemRectMax().y + pad.y);
    list.ChannelsSetCurrent(0);
    list.AddRectFilled(top_left, bottom_right, ImGui::GetColorU32(background), 0.3f * em);
    list.AddRect(top_left, bottom_right, ImGui::GetColorU32(border), 0.3f * em, 0, 1.5f);
    list.ChannelsMerge();
    ImGui::SetCursorScreenPos(top_left);
    ImGui::Dummy(ImVec2(width, bottom_right.y - top_left.y));
}

// The opening line above the views: its text and a bar sweeping while the worker runs.
void draw_opening(const BackgroundOpen& background, bool korean) {
    const ImVec4 background_color = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);
    notice_band(ImVec4(background_color.x, background_color.y, background_color.z, 1.0f),
                ImGui::GetStyleColorVec4(ImGuiCol_Border), [&](float width) {
                    const std::string line = opening_text(background, korean);
                    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
                    ImGui::TextUnformatted(line.c_str());
                    ImGui::PopTextWrapPos();
                    // The steps of the first trace computed so far; before it starts, a bar sweeping once a second.
                    const auto trace = background.trace_progress();
                    const float filled = trace ? static_cast<float>(trace->done) / static_cast<float>(trace->total)
                                               : static_cast<float>(std::fmod(background.seconds(), 1.0));
                    ImGui::ProgressBar(filled, ImVec2(std::min(ImGui::CalcTextSize(line.c_str()).x, width),
                                                      0.35f * ImGui::GetFontSize()),
                                       "");
                });
}

}  // namespace

void ModelOpener::open(const Session& session, const std::string& path) {
    dialog_note_ = nullptr;
    if (!background_.start(path, session)) waiting_ = path;
}

void ModelOpener::finish(Session& session, ViewState& view, Result<Session> opened) {
    if (!opened) {
        problem_ = explain_open_error(background_.path(), opened.error().message);
        return;
    }
    session.adopt_session(std::move(*opened));
    remember_recent_file(view, background_.path());
    problem_.reset();
}

void ModelOpener::browse(const std::string& title) {
    if (dialog_.start(FileDialog::model_chooser(title))) dialog_note_ = nullptr;
}

void ModelOpener::poll(Session& session, ViewState& view) {
    if (std::optional<Result<Session>> opened = background_.take()) finish(session, view, std::move(*opened));
    if (waiting_ && !background_.running()) {
        open(session, *waiting_);
        waiting_.reset();
    }
    const std::optional<FileDialogResult> r = dialog_.take();
    if (!r) return;
    dialog_detail_ = r->message;
    switch (r->outcome) {
        case FileDialogResult::Outcome::chosen: open(session, r->path); break;
        case FileDialogResult::Outcome::cancelled: dialog_note_ = tr_noop("No file chosen."); break;
        case FileDialogResult::Outcome::unavailable:
            dialog_note_ =
                tr_noop("No file dialog: zenity is not installed. Type the path, or drop the file on the window.");
            break;
        case FileDialogResult::Outcome::failed: dialog_note_ = tr_noop("The file dialog did not open."); break;
    }
}

std::string opening_text(const BackgroundOpen& background, bool korean) {
    const std::string file = std::filesystem::path(background.path()).filename().string();
    const char* name = file.empty() ? background.path().c_str() : file.c_str();
    char line[512];
    if (const auto trace = background.trace_progress())
        std::snprintf(line, sizeof line, tr(korean, "Opening %s: running the forward pass, step %zu of %zu (%.1f s)"),
                      name, trace->done, trace->total, background.seconds());
    else
        std::snprintf(line, sizeof line, tr(korean, "Opening %s: reading the weights (%.1f s)"), name,
                      background.seconds());
    return line;
}

std::string open_problem_text(const OpenProblem& problem, bool korean) {
    const char* format = tr(korean, problem_format(problem.kind));
    const int n = std::snprintf(nullptr, 0, format, problem.name.c_str());
    std::string out(static_cast<size_t>(std::max(n, 0)), '\0');
    std::snprintf(out.data(), out.size() + 1, format, problem.name.c_str());
    return out;
}

void draw_open_problem(ModelOpener& opener, bool korean) {
    if (opener.opening()) return draw_opening(opener.background(), korean);
    if (!opener.problem()) return;
    const OpenProblem& problem = *opener.problem();
    const bool dark = ImGui::GetStyle().Colors[ImGuiCol_WindowBg].x < 0.5f;
    const ImVec4 background = dark ? ImVec4(0.32f, 0.08f, 0.07f, 1.0f) : ImVec4(1.0f, 0.9f, 0.88f, 1.0f);
    notice_band(background, ImVec4(0.9f, 0.3f, 0.25f, 1.0f), [&](float width) {
        // The line wraps before "(?)" and ×, which follow its last line.
        const ImGuiStyle& style = ImGui::GetStyle();
        const float after = ImGui::CalcTextSize("(?)").x + ImGui::CalcTextSize("×").x + 2.0f * style.FramePadding.x +
                            3.0f * style.ItemSpacing.x;
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(width - after, 8.0f * ImGui::GetFontSize()));
        ImGui::TextUnformatted(open_problem_text(problem, korean).c_str());
        ImGui::PopTextWrapPos();
        const bool hovered = ImGui::IsItemHovered();
        ImGui::SameLine();
        ImGui::TextDisabled("(?)");
        if ((hovered || ImGui::IsItemHovered()) && !problem.detail.empty()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(40.0f * ImGui::GetFontSize());
            ImGui::TextUnformatted(problem.detail.c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        ImGui::SameLine();
        if (ImGui::SmallButton("×##open_problem")) opener.dismiss();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(korean, "Dismiss"));
    });
}

ModelOpener& model_opener(PanelContext& ctx) {
    ModelOpener* opener = ctx.caches.get<ModelOpener*>();
    assert(opener && "App::frame puts its ModelOpener in the panel caches");
    return *opener;
}

}  // namespace attnlab::gui
