// App: one frame of the UI over the app model (app/model: Session, ViewState, Training, TourRunner),
// which it owns with the heatmap renderer and the panels' caches. Lays out the fixed windows (menu;
// input, and model or the tour's card, on the left; the tabbed views; the stepper at the bottom),
// routes keys to commands, plays the stepper, writes tour slides and draws the classroom overlays.
#pragma once

#include "gl/heatmap_renderer.h"
#include "model_opener.h"
#include "panels/panel_context.h"
#include "paths.h"
#include "session.h"
#include "slide_export.h"
#include "tour.h"
#include "training.h"
#include "ui_scale.h"
#include "view_state.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// What ui_scale needs to know of the current GL context's window: its framebuffer, the monitor's content scale
// (or `content_scale` when above 0, as --scale gives it), and the type the settings ask for.
UiScaleInputs window_scale_inputs(float content_scale, const Settings& settings);

// What the frame asks the window loop to do after rendering.
struct FrameRequests {
    std::optional<std::string> save_window_png;
    std::optional<std::string> save_view_png;  // the central view's rectangle
    bool quit = false;
    bool fonts_changed = false;  // font scale or presentation mode changed
    bool toggle_fullscreen = false;
};

class App {
public:
    // `work`: where training and opening run, on threads of their own or between frames (the web page).
    App(Session session, ViewState view, HeatmapRenderer heatmaps, Paths paths,
        WorkMode work = WorkMode::own_thread);

    // Builds the UI for one frame. `dt` is the seconds since the last frame.
    FrameRequests frame(float dt);
    // After the frame is rendered: frees idle textures and, after a model change, the freed heap pages.
    void end_frame();
    void open_dropped_file(const std::string& path);  // a failure shows as the opener's notice
    void show_open_problem(OpenProblem problem) { opener_.show(std::move(problem)); }  // e.g. a bad --model
    void show_view(View v) { view_.tab = v; }
    // Starts the Output view's generation token by token (an encoder-decoder model from <sos>); false if
    // the model does not generate.
    bool start_generation();
    bool animating() const {
        return view_.stepper.playing || view_.output.animation.playing() || slides_.pending();
    }
    // How long the window loop may wait for input before the next frame: none while playing or writing slides,
    // a thirtieth of a second while a training run goes on (its curves move), a tenth while the
    // file dialog is open (its choice is polled), else a quarter.
    double wait_seconds() const {
        return animating() ? 0.0 : training_.active() ? 1.0 / 30.0 : opener_.browsing() ? 0.1 : 0.25;
    }
    // Starts the run the Training view's form describes (see Training::start); false and the
    // session's error on failure.
    bool start_training(const TrainJob& job);
    Training& training() { return training_; }

    // The guided tour: opens chapter `index` (0-based) or reports why not (in `status` and the result).
    bool open_tour_chapter(int index);
    const TourRunner& tour() const { return tour_; }
    // After a frame with a chapter open: empty if its task's widget was drawn fully on screen and the
    // card's task was not cut off, else one line saying what was not (for --check-tour-target).
    std::string tour_target_problem();
    // Writes the open chapter's slides (its view, then each of its slide views) as PNGs into `dir` (made if
    // missing), one every few frames; slides_pending() is true until the last is written and the app is put
    // back as it was. While it is, each frame is a slide: the view alone, under its title, kSlideWidth ×
    // kSlideHeight in presentation type, which the window loop renders offscreen with no pointer.
    void export_tour_slides(const std::string& dir);
    bool slides_pending() const { return slides_.pending(); }

    Session& session() { return session_; }
    ViewState& view() { return view_; }
    HeatmapRenderer& heatmaps() { return heatmaps_; }
    // The type's size and the spacing's factor for the window as it is now (see ui_scale.h).
    UiScale ui_scale() const;
    float content_scale = 0.0f;  // the screen's scale (--scale); 0: the monitor's, as GLFW reports it
    std::string font_warning;    // set by the loop when the Hangul font is missing
    std::string status;          // the last export's result, shown in the menu bar
    // The central view's rectangle in framebuffer pixels (for "Save view as PNG").
    float view_x = 0, view_y = 0, view_w = 0, view_h = 0;

private:
    void handle_keys(FrameRequests& req);
    void draw_menu(FrameRequests& req);
    void draw_non_finite_warning();
    void draw_predict_indicator();
    void draw_layout();
    View shown_view() const;
    void draw_view_tabs(const PanelContext& ctx);
    void draw_central_view(PanelContext& ctx);
    void advance_playback(float dt);
    void advance_generation();
    void follow_cursor();
    void forget_old_model();
    void draw_classroom_overlays();
    void draw_slide();
    void next_slide(FrameRequests& req);
    void page(int delta);  // PageDown/PageUp: the next or previous tour chapter, or in classroom mode the next view

    Session session_;
    ViewState view_;
    HeatmapRenderer heatmaps_;
    Paths paths_;
    Training training_;
    TourRunner tour_;
    ModelOpener opener_;             // every open (drop, menu, model panel), the file dialog, and the failure notice
    SlideExport slides_;
    float play_accumulator_ = 0.0f;
    PanelCaches caches_;
    uint64_t drawn_model_serial_ = 0;  // the session's model that caches_ and the textures show
    bool trim_heap_after_render_ = false;
    float tabs_bottom_ = 0.0f;         // screen y under the view tabs, where the view's content starts
    int scroll_to_target_frames_ = 0;  // frames left in which the view scrolls to the chapter's widget
    ImVec2 fitted_display_;            // the window size the font was last checked against
    size_t last_cursor_ = SIZE_MAX;    // so that a run started mid-way shows its step at once
};

}  // namespace attnlab::gui
