// The frame: menu, fixed layout, keys, playback.
#include "app.h"

#include "glfw_extras.h"
#include "io/trace_file.h"
#include "panels/changes_bar.h"
#include "panels/panel_context.h"
#include "panels/stepper_timeline.h"
#include "panels/tour_panel.h"
#include "panels/tour_target.h"
#include "platform/memory.h"
#include "predict_mode.h"

#include <GLFW/glfw3.h>  // key codes: ImGui 1.86 indexes keys by the backend's codes
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>
#include <vector>

namespace attnlab::gui {

namespace {

// A view's tab title (English, for ctx.t).
const char* view_title(View v) {
    switch (v) {
        case View::input: return tr_noop("Input");
        case View::model: return tr_noop("Model");
        case View::positional: return tr_noop("Positional encoding");
        case View::attention: return tr_noop("Attention");
        case View::masks: return tr_noop("Masks");
        case View::residual: return tr_noop("Residual flow");
        case View::ffn: return tr_noop("FFN");
        case View::output: return tr_noop("Output");
        case View::stepper: return tr_noop("Stepper");
        case View::weights: return tr_noop("Weights");
        case View::training: return tr_noop("Training");
        case View::playground: return tr_noop("Playground");
        case View::analysis: return tr_noop("Analysis");
    }
    return "";
}

// The tasks whose widget a central view draws: the App scrolls that view to it.
bool target_in_central_view(TourTaskKind kind) {
    return kind != TourTaskKind::step_past && kind != TourTaskKind::edit_source;
}

constexpr View kCentralViews[] = {View::positional, View::attention, View::masks,    View::residual,   View::ffn,
                                  View::output,     View::weights,   View::training, View::playground, View::analysis};
// Classroom mode hides the side panels and folds the stepper to a strip: their views become tabs too.
constexpr View kClassroomViews[] = {View::input,      View::model,    View::positional, View::attention, View::masks,
                                    View::residual,   View::ffn,      View::output,     View::weights,   View::training,
                                    View::playground, View::analysis, View::stepper};

bool is_central(View v) {
    return std::find(std::begin(kCentralViews), std::end(kCentralViews), v) != std::end(kCentralViews);
}

// The body of a view, below its tab (or a slide's title).
void draw_view_body(View v, PanelContext& ctx) {
    switch (v) {
        case View::input: draw_input_panel(ctx); break;
        case View::model: draw_model_panel(ctx); break;
        case View::stepper: draw_stepper_panel(ctx); break;
        case View::positional: draw_positional_panel(ctx); break;
        case View::attention: draw_attention_panel(ctx); break;
        case View::masks: draw_masks_panel(ctx); break;
        case View::residual: draw_residual_panel(ctx); break;
        case View::ffn: draw_ffn_panel(ctx); break;
        case View::output: draw_output_panel(ctx); break;
        case View::weights: draw_weights_panel(ctx); break;
        case View::training: draw_training_panel(ctx); break;
        case View::playground: draw_playground_panel(ctx); break;
        case View::analysis: draw_analysis_panel(ctx); break;
        default: break;
    }
}

// The four windows tile the screen, so their background is the colour main.cpp clears the frame
// to: one full-screen layer of blended pixels less for a software rasteriser.
constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBackground;

}  // namespace

App::App(Session session, ViewState view, HeatmapRenderer heatmaps, Paths paths, WorkMode work)
    : session_(std::move(session)),
      view_(std::move(view)),
      heatmaps_(std::move(heatmaps)),
      paths_(std::move(paths)),
      training_(work),
      opener_(work) {
    if (auto st = tour_.load(paths_.assets); !st) status = st.error().message;
}

UiScaleInputs window_scale_inputs(float content_scale, const Settings& settings) {
    GLFWwindow* window = glfwGetCurrentContext();
    UiScaleInputs in;
    in.content_scale = content_scale;
    if (in.content_scale <= 0.0f && window) in.content_scale = window_content_scale(window);
    if (window) glfwGetFramebufferSize(window, &in.width, &in.height);
    in.font_scale = settings.font_scale;
    in.large_type = settings.presentation || settings.classroom;
    return in;
}

// The window's type (ui_scale.h), or while slides are written the slide's.
UiScale App::ui_scale() const {
    UiScaleInputs in = window_scale_inputs(content_scale, view_.settings);
    if (slides_.pending()) {  // a slide is the same picture from any screen
        in.content_scale = 1.0f;
        in.width = kSlideWidth, in.height = kSlideHeight;
    }
    return gui::ui_scale(in);
}

std::string App::tour_target_problem() {
    const TourChapter* c = tour_.chapter();
    if (!c) return "";
    const ImVec2 screen = ImGui::GetIO().DisplaySize;
    const std::string problem = gui::tour_target_problem(caches_.get<TourTargetProbe>(), screen, c->task);
    if (problem.empty()) return "";
    return "tour chapter " + std::to_string(tour_.current() + 1) + " (" + c->id + ") at " +
           std::to_string(static_cast<int>(screen.x)) + "x" + std::to_string(static_cast<int>(screen.y)) + ": " +
           problem;
}

bool App::open_tour_chapter(int index) {
    if (auto st = tour_.open(index, session_, view_, paths_.assets); !st) {
        status = st.error().message;
        return session_.reject(st.error().message);
    }
    last_cursor_ = session_.timeline_cursor();  // the chapter's view stays; the cursor did not move by a step
    scroll_to_target_frames_ = 10;              // long enough for the view's layout to settle
    return true;
}

void App::export_tour_slides(const std::string& dir) {
    const TourChapter* c = tour_.chapter();
    if (!c) return;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        status = tr(view_.settings.korean, "Slides not saved:") + (" " + dir + ": " + ec.message());
        return;
    }
    slides_.start(*c, tour_.current() + 1, dir, session_, view_);
}

// The next slide's view, and when it has settled the file to save this frame as (tour-<chapter>-<id>-<n>.png).
void App::next_slide(FrameRequests& req) {
    if (!slides_.pending()) return;
    if (auto png = slides_.advance(session_, view_)) req.save_window_png = std::move(png);
    last_cursor_ = session_.timeline_cursor();  // a slide's pass is no step of the user's: no view follows it
}

void App::page(int delta) {
    if (tour_.active()) {
        const int next = tour_.current() + delta;
        if (next >= 0 && next < static_cast<int>(tour_.chapters().size())) open_tour_chapter(next);
        return;
    }
    if (!view_.settings.classroom) return;
    const int n = static_cast<int>(std::size(kClassroomViews));  // the classroom's tabs, in their order
    int at = 0;
    while (at < n && kClassroomViews[at] != view_.tab) ++at;
    show_view(kClassroomViews[((at + delta) % n + n) % n]);
}

bool App::start_training(const TrainJob& job) {
    if (auto st = training_.start(session_, job); !st) return session_.reject(st.error().message);
    return true;
}

void App::open_dropped_file(const std::string& path) { opener_.open(session_, path); }

void App::handle_keys(FrameRequests& req) {
    const ImGuiIO& io = ImGui::GetIO();
    if (ImGui::IsKeyPressed(GLFW_KEY_F11)) {
        view_.settings.presentation = !view_.settings.presentation;
        req.fonts_changed = req.toggle_fullscreen = true;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_F5)) {
        view_.settings.classroom = !view_.settings.classroom;
        req.fonts_changed = true;
    }
    if (io.WantTextInput) return;
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE) && view_.settings.classroom) {
        view_.settings.classroom = false;
        req.fonts_changed = true;
    }
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown))) page(+1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp))) page(-1);
    if (ImGui::IsKeyPressed(GLFW_KEY_T, false)) {
        if (tour_.active())
            tour_.close(view_);
        else
            open_tour_chapter(0);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) toggle_predict(view_);
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) view_.stepper.hidden = false;
    if (ImGui::IsKeyPressed(GLFW_KEY_L, false)) view_.settings.korean = !view_.settings.korean;
    if (ImGui::IsKeyPressed(GLFW_KEY_E, false) && tour_.active()) export_tour_slides(default_slides_dir());
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) session_.step_forward();
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) session_.step_back();
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) session_.run_to(0);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) session_.run_to(session_.stepper().size());
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) view_.stepper.playing = !view_.stepper.playing;
}

void App::advance_playback(float dt) {
    if (!view_.stepper.playing) return;
    if (session_.stepper().cursor() >= session_.stepper().size()) {
        view_.stepper.playing = false;
        return;
    }
    play_accumulator_ += dt * view_.stepper.steps_per_second;
    while (play_accumulator_ >= 1.0f && session_.stepper().cursor() < session_.stepper().size()) {
        session_.step_forward();
        play_accumulator_ -= 1.0f;
    }
}

// The Output view's generation, token by token: the token due by now, through the session.
void App::advance_generation() {
    OutputViewState& o = view_.output;
    if (o.animation.advance(session_, o.choice(), static_cast<uint64_t>(o.sample_seed), ImGui::GetTime()) && o.sample)
        ++o.sample_seed;  // the next token draws afresh
}

bool App::start_generation() {
    const bool from_sos = session_.stepper().config().arch == Arch::encoder_decoder;
    return view_.output.animation.start(session_, from_sos, ImGui::GetTime());
}

// When the cursor moves, bring forward the view that draws the step just run; in the backward half, the view of
// the forward step the last backward step went back through.
void App::follow_cursor() {
    const size_t cursor = session_.timeline_cursor(), n = session_.stepper().size();
    if (cursor == last_cursor_) return;
    cover_after_step(view_, last_cursor_, cursor);  // guess first
    last_cursor_ = cursor;
    if (cursor == 0 || cursor == n || cursor == session_.timeline_size()) return;
    const size_t step = cursor > n ? session_.backward_forward_index(cursor - n - 1) : cursor - 1;
    const StepId& id = session_.stepper().step(step).record.id;
    const View v = view_for_step(id);
    // Classroom's Stepper tab stays while the class steps through, and so does a tour chapter's view when it asks to step.
    if (view_.tab != View::stepper && !tour_.keeps_view())
        for (View c : kCentralViews)
            if (c == v) show_view(v);
    if (v == View::attention) focus_attention_step(view_, id);
}

// Where NaN or ±∞ first appears in the trace, as a red menu-bar item that jumps to that step.
void App::draw_non_finite_warning() {
    const auto bad = session_.stepper().first_non_finite_step();
    if (!bad) return;
    const std::string label = std::string(tr(view_.settings.korean, "NaN or infinite values from step")) + " " +
                              std::to_string(*bad + 1) + ": " + session_.stepper().step(*bad).path;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.3f, 0.25f, 1.0f));
    if (ImGui::MenuItem(label.c_str())) session_.run_to(*bad + 1);
    ImGui::PopStyleColor();
}

// While predict mode is on, a yellow menu-bar item says so in every view (a click turns it off), so
// a covered view is never a mystery.
void App::draw_predict_indicator() {
    if (!shows_predict_indicator(view_)) return;
    const bool ko = view_.settings.korean;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.78f, 0.16f, 1.0f));
    const std::string label = std::string("● ") + tr(ko, "Predict mode: on (P to turn off)");
    if (ImGui::MenuItem(label.c_str())) end_predict(view_);
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr(ko,
                                   "Each step forward covers the view and the stepper's numbers until R reveals "
                                   "them. Click here or press P to turn predict mode off."));
}

void App::draw_menu(FrameRequests& req) {
    const bool ko = view_.settings.korean;
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu(tr(ko, "File"))) {
        if (ImGui::BeginMenu(tr(ko, "Recent files"))) {
            for (const auto& f : view_.settings.recent_files)
                if (ImGui::MenuItem(f.c_str())) open_dropped_file(f);
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem(tr(ko, "Save trace"))) {
            auto st = io::write_trace("attnlab-trace.safetensors", session_.stepper());
            status = st ? std::string(tr(ko, "Saved")) + " attnlab-trace.safetensors" : st.error().message;
        }
        if (ImGui::MenuItem(tr(ko, "Save window as PNG"))) req.save_window_png = "attnlab-window.png";
        if (ImGui::MenuItem(tr(ko, "Save view as PNG")))
            req.save_view_png = std::string("attnlab-") + view_id(view_.tab) + ".png";
        ImGui::Separator();
        if (ImGui::MenuItem(tr(ko, "Quit"))) req.quit = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr(ko, "View"))) {
        if (ImGui::MenuItem(tr(ko, "Dark theme"), nullptr, view_.settings.dark_theme))
            view_.settings.dark_theme = !view_.settings.dark_theme;
        if (ImGui::MenuItem(tr(ko, "Presentation mode"), "F11", view_.settings.presentation)) {
            view_.settings.presentation = !view_.settings.presentation;
            req.fonts_changed = req.toggle_fullscreen = true;
        }
        if (ImGui::MenuItem(tr(ko, "Classroom mode"), "F5", view_.settings.classroom)) {
            view_.settings.classroom = !view_.settings.classroom;
            req.fonts_changed = true;
        }
        if (ImGui::MenuItem(tr(ko, "Predict, then reveal"), "P / R", view_.settings.predict)) toggle_predict(view_);
        if (value_slider_float(nullptr, "##font", &view_.settings.font_scale, 0.75f, 2.0f, "A %.2fx",
                               6.0f * ImGui::GetFontSize()))
            req.fonts_changed = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr(ko, "Tour"))) {
        for (size_t i = 0; i < tour_.chapters().size(); ++i) {
            const TourChapter& c = tour_.chapters()[i];
            const Language language = ko ? Language::korean : Language::english;
            if (!c.part.empty() && c.part_index == 0) {  // a part's chapters under its title
                ImGui::Separator();
                ImGui::TextDisabled("%s", c.part_title_in(language).c_str());
            }
            const std::string label = (c.part.empty() ? "" : "   ") + ("§" + c.section + "  " + c.in(language).title);
            if (ImGui::MenuItem(label.c_str(), nullptr, tour_.current() == static_cast<int>(i)))
                open_tour_chapter(static_cast<int>(i));
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr(ko, "Language"))) {
        if (ImGui::MenuItem("English", nullptr, !view_.settings.korean)) view_.settings.korean = false;
        if (ImGui::MenuItem("한국어", nullptr, view_.settings.korean)) view_.settings.korean = true;
        ImGui::EndMenu();
    }
    draw_predict_indicator();
    ImGui::TextDisabled("  %s", session_.model_name().c_str());
    draw_non_finite_warning();
    if (!font_warning.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "  %s", font_warning.c_str());
    if (!status.empty()) {
        ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.6f, 1), "  %s", status.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", status.c_str());  // whole, when the bar cuts a long path
    }
    ImGui::EndMainMenuBar();
}

// The view tabs as buttons that wrap onto a second row when the pane is narrow: every title whole
// ("Positional encoding", never "Positi…"), the open one in the active tab colour.
void App::draw_view_tabs(const PanelContext& ctx) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x, gap = 2.0f;
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(gap, gap));
    const bool classroom = view_.settings.classroom;
    std::vector<View> tabs = classroom ? std::vector<View>(std::begin(kClassroomViews), std::end(kClassroomViews))
                                       : std::vector<View>(std::begin(kCentralViews), std::end(kCentralViews));
    if (!classroom && tour_.active()) tabs.insert(tabs.begin(), View::model);  // its side panel is the tour's card
    const size_t n_tabs = tabs.size();
    for (size_t i = 0; i < n_tabs; ++i) {
        const View v = tabs[i];
        const char* title = ctx.t(view_title(v));
        const float w = ImGui::CalcTextSize(title).x + 2.0f * style.FramePadding.x;
        if (i > 0 && ImGui::GetItemRectMax().x + gap + w <= right) ImGui::SameLine();
        const bool open = shown_view() == v;
        ImGui::PushStyleColor(ImGuiCol_Button, style.Colors[open ? ImGuiCol_TabActive : ImGuiCol_Tab]);
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered, style.Colors[ImGuiCol_TabHovered]);
        ImGui::PushStyleColor(ImGuiCol_ButtonActive, style.Colors[ImGuiCol_TabActive]);
        if (ImGui::Button((std::string(title) + "###" + view_id(v)).c_str())) view_.tab = v;
        ImGui::PopStyleColor(3);
    }
    ImGui::PopStyleVar();
    // The open tab's colour runs under the row, as a tab bar's line does.
    const ImVec2 below(ImGui::GetWindowPos().x, ImGui::GetItemRectMax().y);
    ImGui::GetWindowDrawList()->AddLine(below, ImVec2(right, below.y), ImGui::GetColorU32(ImGuiCol_TabActive), 2.0f);
    tabs_bottom_ = below.y + 2.0f;
    ImGui::Dummy(ImVec2(0.0f, 2.0f));
}

// The view the central pane shows: the chosen one, but outside classroom mode the Input, Model and
// Stepper views are side panels already, and the pane shows the first of its own (as a tab bar would).
// Outside classroom mode the Input, Model and Stepper views are side panels and the view pane shows positional for
// them; but during a tour the card takes the Model panel's place, so the Model view (its switches) is a tab.
View App::shown_view() const {
    if (view_.settings.classroom || is_central(view_.tab)) return view_.tab;
    return tour_.active() && view_.tab == View::model ? View::model : View::positional;
}

// The open view, in a child that scrolls; in the first frames of a tour chapter it scrolls to the
// chapter's widget when the view drew it out of sight, showing its section's heading whole.
void App::draw_central_view(PanelContext& ctx) {
    draw_open_problem(opener_, view_.settings.korean);  // a failed open, in plain words, above the view
    draw_changes_bar(ctx);                              // what differs from the model file, in every view
    ImGui::BeginChild("view", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    draw_view_body(shown_view(), ctx);
    const TourTargetProbe& p = caches_.get<TourTargetProbe>();
    if (scroll_to_target_frames_ > 0 && p.seen && !p.visible && p.wanted && target_in_central_view(*p.wanted)) {
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        const ImDrawList* draw = ImGui::GetWindowDrawList();  // its clip rectangle: the visible part
        // Half the space between lines above the heading: the line before it ends above the visible top, and
        // so do the descenders its glyphs draw past their line.
        const float gap = 0.5f * ImGui::GetStyle().ItemSpacing.y;
        if (p.min.y < pos.y || p.max.y > pos.y + size.y)
            ImGui::SetScrollY(
                scroll_y_to_section(p, ImGui::GetScrollY(), draw->GetClipRectMin().y, draw->GetClipRectMax().y, gap));
        if (p.min.x < pos.x || p.max.x > pos.x + size.x)
            ImGui::SetScrollX(ImGui::GetScrollX() + p.min.x - pos.x - 0.5f * ctx.em);
    } else if (scroll_to_target_frames_ > 0 && watched_out_of_sight(p)) {  // the task's widget is on the card
        const ImDrawList* draw = ImGui::GetWindowDrawList();
        ImGui::SetScrollY(scroll_y_to_watched(p, ImGui::GetScrollY(), draw->GetClipRectMin().y,
                                              draw->GetClipRectMax().y, 0.5f * ImGui::GetStyle().ItemSpacing.y));
    }
    ImGui::EndChild();
}

void App::draw_layout() {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float em = ImGui::GetFontSize();
    PanelContext ctx{session_, view_, heatmaps_, paths_, status, caches_, em, training_};
    const ImVec2 origin = vp->WorkPos, size = vp->WorkSize;
    // The stepper: controls, timeline and 4 lines of explanation; in classroom mode one line of controls.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float stepper_h = view_.settings.classroom ? ImGui::GetFrameHeight() + 2.0f * style.WindowPadding.y
                                                     : std::min(10.6f * em, size.y * 0.3f);
    const float body_h = size.y - stepper_h;
    // On a projector the views matter most: the side panels get less of the width, but never less
    // than 16 em, where the Model view's switches still read whole. In classroom mode only the tour's
    // card stays beside the view, as wide as its chapter needs, and without a tour the view has it all.
    float side_w = std::min(25.0f * em, std::max(size.x * (view_.settings.presentation ? 0.24f : 0.32f), 16.0f * em));
    if (view_.settings.classroom)
        side_w = tour_.active() ? classroom_tour_card_width(ctx, tour_, size.x, body_h) : 0.0f;

    auto fixed_window = [&](const char* title, ImVec2 pos, ImVec2 sz, auto&& body) {
        ImGui::SetNextWindowPos(pos);
        ImGui::SetNextWindowSize(sz);
        const bool untitled = std::string_view(title).starts_with("###");
        if (ImGui::Begin(title, nullptr, kFixed | (untitled ? ImGuiWindowFlags_NoTitleBar : 0))) body();
        ImGui::End();
    };
    auto tour_window = [&](ImVec2 pos, ImVec2 sz) {
        fixed_window((std::string(ctx.t("Guided tour")) + "###tour").c_str(), pos, sz, [&] {
            const TourRequest r = draw_tour_panel(ctx, tour_);
            if (r.kind == TourRequest::open) open_tour_chapter(r.chapter);
            if (r.kind == TourRequest::close) tour_.close(view_);
            if (r.kind == TourRequest::export_slides) export_tour_slides(default_slides_dir());
        });
    };
    const float input_h = body_h * (tour_.active() ? 0.35f : 0.5f);  // a chapter's card needs the room
    if (view_.settings.classroom) {
        if (tour_.active()) tour_window(origin, ImVec2(side_w, body_h));
    } else {
        fixed_window((std::string(ctx.t("Input")) + "###input").c_str(), origin, ImVec2(side_w, input_h),
                     [&] { draw_input_panel(ctx); });
        if (tour_.active())
            tour_window(ImVec2(origin.x, origin.y + input_h), ImVec2(side_w, body_h - input_h));
        else
            fixed_window((std::string(ctx.t("Model")) + "###model").c_str(), ImVec2(origin.x, origin.y + input_h),
                         ImVec2(side_w, body_h - input_h), [&] { draw_model_panel(ctx); });
    }
    fixed_window("###views", ImVec2(origin.x + side_w, origin.y), ImVec2(size.x - side_w, body_h), [&] {
        view_x = ImGui::GetWindowPos().x;
        view_y = ImGui::GetWindowPos().y;
        view_w = ImGui::GetWindowSize().x;
        view_h = ImGui::GetWindowSize().y;
        draw_view_tabs(ctx);
        draw_central_view(ctx);
    });
    // The classroom's strip has no title bar: one line of controls and the step.
    const std::string stepper_title =
        view_.settings.classroom ? std::string("###stepper_strip") : std::string(ctx.t("Stepper")) + "###stepper";
    fixed_window(stepper_title.c_str(), ImVec2(origin.x, origin.y + body_h), ImVec2(size.x, stepper_h),
                 [&] { view_.settings.classroom ? draw_stepper_strip(ctx) : draw_stepper_panel(ctx); });
    if (view_.bring_forward) show_view(*std::exchange(view_.bring_forward, std::nullopt));
    draw_classroom_overlays();
}

// A tour slide: the current view alone over the whole window, under its title (the chapter's section
// and title, and the view's name); no menu, side panels, tabs or stepper.
void App::draw_slide() {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float em = ImGui::GetFontSize();
    PanelContext ctx{session_, view_, heatmaps_, paths_, status, caches_, em, training_};
    ImGui::SetNextWindowPos(vp->Pos);
    ImGui::SetNextWindowSize(vp->Size);
    if (ImGui::Begin("###slide", nullptr, kFixed | ImGuiWindowFlags_NoTitleBar)) {
        view_x = ImGui::GetWindowPos().x;
        view_y = ImGui::GetWindowPos().y;
        view_w = ImGui::GetWindowSize().x;
        view_h = ImGui::GetWindowSize().y;
        if (const TourChapter* c = tour_.chapter()) {
            const TourText& text = c->in(view_.settings.korean ? Language::korean : Language::english);
            ImGui::SetWindowFontScale(1.5f);
            ImGui::Text("§%s  %s", c->section.c_str(), text.title.c_str());
            ImGui::SetWindowFontScale(1.0f);
            ImGui::SameLine();
        }
        ImGui::TextDisabled("  %s", ctx.t(view_title(view_.tab)));
        ImGui::Separator();
        ImGui::BeginChild("view", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
        draw_view_body(view_.tab, ctx);
        ImGui::EndChild();
    }
    ImGui::End();
}

// Over everything: in predict mode a cover on the view until R, and in classroom mode a laser dot.
void App::draw_classroom_overlays() {
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    if (view_.stepper.hidden) {
        const float em = ImGui::GetFontSize();
        const ImVec2 p(view_x, tabs_bottom_), q(view_x + view_w, view_y + view_h);  // below the tabs
        ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        bg.w = 1.0f;  // opaque: nothing of the answer shows through
        fg->AddRectFilled(p, q, ImGui::GetColorU32(bg));
        const char* text = tr(view_.settings.korean, "What comes out of this step? Guess, then press R to reveal.");
        const ImVec2 ts = ImGui::CalcTextSize(text);
        const ImVec2 mid((p.x + q.x) * 0.5f, (p.y + q.y) * 0.5f);
        fg->AddText(nullptr, 4.0f * em, ImVec2(mid.x - 1.0f * em, mid.y - 4.5f * em), IM_COL32(255, 200, 40, 255), "?");
        fg->AddText(ImVec2(mid.x - ts.x * 0.5f, mid.y + 0.5f * em), ImGui::GetColorU32(ImGuiCol_Text), text);
    }
    if (!view_.settings.classroom || !ImGui::IsMousePosValid()) return;
    const ImVec2 m = ImGui::GetMousePos();
    const float r = 0.45f * ImGui::GetFontSize();
    fg->AddCircleFilled(m, 2.2f * r, IM_COL32(255, 40, 40, 50));
    fg->AddCircleFilled(m, r, IM_COL32(255, 40, 40, 200));
}

// A new model makes every panel cache and every texture stale, and the caches hold some of the old
// model's tensors: drop them all now, and trim the heap once this frame has drawn the new ones.
void App::forget_old_model() {
    if (session_.model_serial() == drawn_model_serial_) return;
    drawn_model_serial_ = session_.model_serial();
    caches_ = PanelCaches();
    heatmaps_.release_all();
    trim_heap_after_render_ = true;
}

void App::end_frame() {
    heatmaps_.end_frame();
    if (slides_.finish(session_, view_)) {  // the last slide is written: the app is as it was, and says where
        last_cursor_ = session_.timeline_cursor();
        char line[1024];
        const char* home = std::getenv("HOME");  // "~/Pictures/attnlab-slides": the whole path fits a 1024-wide bar
        std::snprintf(line, sizeof line, tr(view_.settings.korean, "%d slides saved in %s"), slides_.written(),
                      path_with_tilde(slides_.dir(), home ? home : "").c_str());
        status = line;
    }
    if (!trim_heap_after_render_) return;
    platform::return_free_heap_pages();
    trim_heap_after_render_ = false;
}

FrameRequests App::frame(float dt) {
    FrameRequests req;
    if (view_.settings.dark_theme)
        ImGui::StyleColorsDark();
    else
        ImGui::StyleColorsLight();
    // Square corners throughout, as ImGui's frames and buttons already are: under software rendering each
    // rounded corner costs a dozen more anti-aliased triangles (the tabs alone had 220).
    ImGui::GetStyle().WindowRounding = ImGui::GetStyle().TabRounding = ImGui::GetStyle().ScrollbarRounding = 0.0f;
    // Between frames (the web page) the run and an open advance here, about 12 ms a frame; with threads, nothing.
    constexpr std::chrono::milliseconds kFrameWorkBudget{12};
    opener_.pump(kFrameWorkBudget);
    training_.pump(kFrameWorkBudget);
    training_.sync(session_);       // the newest snapshot, before any view reads the trace
    opener_.poll(session_, view_);  // the file dialog's choice, before the caches are checked
    forget_old_model();
    caches_.get<ModelOpener*>() = &opener_;  // for the model panel (model_opener())
    handle_keys(req);
    advance_playback(dt);
    advance_generation();
    follow_cursor();
    next_slide(req);
    const bool slide = slides_pending();
    // The open chapter's widget, as the panels will report it this frame.
    caches_.get<TourTargetProbe>() = TourTargetProbe{};
    if (const TourChapter* c = tour_.chapter()) caches_.get<TourTargetProbe>() = tour_target_probe(*c);
    scroll_to_target_frames_ = std::max(scroll_to_target_frames_ - 1, 0);
    // A resized window may need another font size for the layout to fit (asked only when the size changed:
    // ui_scale asks the window system).
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    if (display.x != fitted_display_.x || display.y != fitted_display_.y) {
        fitted_display_ = display;
        const ImVector<ImFont*>& fonts = ImGui::GetIO().Fonts->Fonts;
        if (!fonts.empty() && std::abs(ui_scale().font_pixels - fonts[0]->FontSize) > 0.5f) req.fonts_changed = true;
    }
    if (slide) {
        draw_slide();
        return req;
    }
    draw_menu(req);
    draw_layout();
    return req;
}

}  // namespace attnlab::gui
