// What every way of running the app shares: its window, the renderers and App it holds, and the frame that each
// run mode draws (app/gui/main.cpp's modes on the desktop, app/web/main_web.cpp's loop in the page).
#pragma once

#include "app.h"
#include "gl/font_texture.h"
#include "gl/offscreen_target.h"
#include "gl/ui_renderer.h"
#include "launch_options.h"
#include "paths.h"
#include "progress_screen.h"
#include "settings_autosave.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct GLFWwindow;

namespace attnlab::gui {

// The message on stderr as "attnlab: message"; returns `code`.
int say_failure(const std::string& message, int code);

// The view state to start from: saved settings, a --settings file, or the defaults; then the flags.
Result<ViewState> initial_view(const LaunchOptions& o, bool headless);

// A GLFW window with ImGui's GLFW backend; nullptr (said on stderr) if none. Files dropped on it are appended to
// `dropped`.
GLFWwindow* open_window(const LaunchOptions& o, bool headless, std::vector<std::string>& dropped);
void close_window(GLFWwindow* window);

// What every run mode drives: the window, the app and its renderers.
struct Running {
    GLFWwindow* window;
    App& app;
    UiRenderer& ui_renderer;
    ProgressScreen& progress;  // redraws the window while a frame's command computes for long
    FontTexture& font_texture;
    std::vector<std::string>& dropped;  // files dropped on the window since the last frame
    const LaunchOptions& o;
    bool headless;
    std::optional<OffscreenTarget> slide_target = std::nullopt;  // made for the first slide
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

struct Frame {
    FrameRequests req;
    bool slide = false;  // drawn offscreen at the slide's size, not shown in the window
    int fb_w = 0, fb_h = 0;
    std::chrono::steady_clock::time_point start;
    Status window_png = ok_status();  // the window's PNG, when the app asked for one (export, tour slide)
};

// The renderers in the window's GL context, the first frame, the model, and the App set up as the flags ask.
class AppHost {
public:
    // nullptr, said on stderr, when a renderer or the model could not be made.
    static std::unique_ptr<AppHost> create(GLFWwindow* window, std::vector<std::string>& dropped, ViewState view,
                                           const Paths& paths, const LaunchOptions& o, bool headless);
    bool started() const { return started_; }  // false when a flag's chapter, run or switch could not start
    Running& running() { return *running_; }

private:
    AppHost(GLFWwindow* window, UiRenderer ui_renderer);
    FontTexture font_texture_;
    UiRenderer ui_renderer_;
    std::optional<App> app_;  // once the model is open
    ProgressScreen progress_;
    ListenToProgress listening_;  // the stepper's long work, on this thread
    std::optional<Running> running_;
    bool started_ = true;
};

// Waits for input, or until the app has something to animate; then opens the files dropped on the window.
void poll_events(Running& r);
Frame draw_frame(Running& r);
// Shows the frame and does what the app asked of the window; false when it asked to quit.
bool present_frame(Running& r, const Frame& f);

// The interactive window's frames: each one drawn and shown, and the settings saved (atomically) within about a
// second of each change, and once more at the end, unless --settings or --fresh-settings chose them.
class InteractiveFrames {
public:
    explicit InteractiveFrames(Running& r);
    bool next();   // one frame; false when the app asked to quit
    void finish();  // the last save
private:
    Running& r_;
    const bool save_;
    SettingsAutosave autosave_;
    const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace attnlab::gui
