#include "app_host.h"

#include "default_model.h"
#include "dropped_files.h"
#include "fonts.h"
#include "gl/gl.h"
#include "i18n.h"
#include "io/file_bytes.h"
#include "key_taps.h"
#include "model_opener.h"
#include "platform/threads.h"
#include "screenshot.h"
#include "startup_frame.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include <cfloat>
#include <cstdio>
#include <filesystem>

namespace attnlab::gui {

int say_failure(const std::string& message, int code) {
    std::fprintf(stderr, "attnlab: %s\n", message.c_str());
    return code;
}

namespace {

int fail(const std::string& message, int code) { return say_failure(message, code); }

// OpenGL 3.3 core on the desktop; in the page, Emscripten's GLFW makes a WebGL2 context (-sMAX_WEBGL_VERSION=2).
void request_gl_context() {
#if !defined(__EMSCRIPTEN__)
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
#endif
}

// The session to start with: --model, or the bundled model (or a random one), run as --step, --loss and
// --backward ask. A --model that does not open is said in one plain line here, and the app opens on the default
// model instead.
Result<Session> initial_session(const LaunchOptions& o, const Paths& paths, std::optional<OpenProblem>& problem) {
    std::string warning;
    auto session = launch_session(paths.assets, o.model, o.preset, o.src, problem, &warning);
    if (problem) fail(open_problem_text(*problem, false), 0);
    if (!warning.empty()) fail("the bundled model was not opened: " + warning, 0);
    if (!session) return session;
    if (o.step) session->run_to(static_cast<size_t>(*o.step));
    if (o.loss && !session->set_loss(*o.loss)) return Error{"--loss: " + session->error()};
    if (o.backward) session->run_to(session->timeline_size());
    return session;
}

void on_drop(GLFWwindow* window, int count, const char** paths) {
    auto* dropped = static_cast<std::vector<std::string>*>(glfwGetWindowUserPointer(window));
    for (int i = 0; i < count; ++i) dropped->push_back(paths[i]);
}

// The font atlas at the window's type size, and ImGui's default spacing scaled to match it.
void rebuild_fonts(App& app, FontTexture& font_texture) {
    const UiScale scale = app.ui_scale();
    const std::string used = load_ui_font(scale.font_pixels);
    ImGui::GetStyle() = ImGuiStyle();  // from the base each time: ScaleAllSizes multiplies what it is given
    ImGui::GetStyle().ScaleAllSizes(scale.style_scale);
    app.font_warning = used.empty() ? tr(app.view().settings.korean, "Hangul font not found: install fonts-nanum") : "";
    font_texture.upload(*ImGui::GetIO().Fonts);
}

// What the flags ask of the app before its first frame: a view, a tour chapter (and its slides),
// a training run. False (said on stderr) if a chapter or the run could not be started.
bool start_from_flags(App& app, FontTexture& font_texture, const LaunchOptions& o, bool headless) {
    bool started = true;
    if (o.view) {
        View v;
        view_from_id(*o.view, v);
        app.show_view(v);
    }
    if (o.scale) app.content_scale = *o.scale;
    for (const std::string& name : o.switches) {  // switches on the weights as opened: the changes bar lists them
        ModelConfig c = app.session().stepper().config();
        if (!apply_launch_switch(name, c) || !app.session().set_config(c)) {
            fail("--switch " + name + ": " + app.session().error(), 1);
            started = false;
        }
    }
    for (const LaunchHead& h : o.heads_off) {  // switched off as the attention view does: the changes bar lists them
        if (!app.session().toggle_head(h.site, h.head)) {
            fail("--head-off: " + app.session().error(), 1);
            started = false;
        }
    }
    if (o.tour && !app.open_tour_chapter(*o.tour - 1)) {
        fail(app.status, 1);
        started = false;
    }
    if (o.tour_slides && started) app.export_tour_slides(*o.tour_slides);
    rebuild_fonts(app, font_texture);  // at the slides' size when they are being written
    if (o.train_steps > 0) {
        TrainForm& form = app.view().train;  // the form shows the run the flags started
        form.steps = o.train_steps;
        if (o.train_task) {
            form.task = *o.train_task;
            form.preset = train_presets(form.task).front();
        }
        if (o.train_on) {
            form.target = TrainTarget::opened_model;
            form.data_path = *o.train_on;
            const bool ids = std::filesystem::path(*o.train_on).extension() == ".ids";
            form.data_kind = ids ? DataFileKind::token_ids : DataFileKind::text;
        } else {
            form.target = TrainTarget::new_model;
        }
        Result<TrainJob> job =
            o.train_on ? opened_model_job(form, app.session(), app.training()) : Result<TrainJob>(train_job(form));
        if (job) job->final_full_eval = !headless;  // a screenshot shows the live scores; no wait for all 500
        if (!job || !app.start_training(*job)) {
            fail(job ? app.session().error() : job.error().message, 1);
            started = false;
        }
    }
    if (o.generate_tokens > 0 && !app.start_generation()) {
        fail("--generate: this model does not generate", 1);
        started = false;
    }
    return started;
}

// A slide frame goes to the offscreen slide target: true if it is bound (else the error is the app's status).
bool bind_slide_target(Running& r) {
    if (!r.slide_target) {
        auto target = OffscreenTarget::create(kSlideWidth, kSlideHeight);
        if (!target) {
            r.app.status = target.error().message;
            return false;
        }
        r.slide_target.emplace(std::move(*target));
    }
    r.slide_target->bind();
    return true;
}

}  // namespace

// The view state to start from: saved settings, a --settings file, or the defaults; then the flags.
Result<ViewState> initial_view(const LaunchOptions& o, bool headless) {
    ViewState view = o.fresh_settings || headless ? ViewState{} : load_view_state();
    if (o.settings) {
        auto bytes = io::read_file_bytes(*o.settings);
        if (!bytes) return bytes.error();
        view = ViewState::from_json(std::string(bytes->begin(), bytes->end()));
    }
    if (o.korean) view.settings.korean = true;
    if (o.presentation) view.settings.presentation = true;
    if (o.light) view.settings.dark_theme = false;
    if (o.classroom) view.settings.classroom = true;
    if (o.predict) view.settings.predict = true;
    return view;
}

// A GLFW window with an OpenGL 3.3 core context (WebGL2 in the page) and ImGui's GLFW backend; nullptr (said on
// stderr) if none.
// Files dropped on it are appended to `dropped`.
GLFWwindow* open_window(const LaunchOptions& o, bool headless, std::vector<std::string>& dropped) {
    if (!glfwInit()) {
        fail("no display: set DISPLAY, or run under xvfb-run (e.g. xvfb-run -a attnlab --screenshot out.png)", 1);
        return nullptr;
    }
    request_gl_context();  // OpenGL 3.3 core, or WebGL2 in the page
    glfwWindowHint(GLFW_DEPTH_BITS, 0);  // ImGui needs neither; llvmpipe's fast path needs no depth buffer
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    GLFWwindow* window = glfwCreateWindow(o.width, o.height, "Attention Lab", nullptr, nullptr);
    if (!window) {
        glfwTerminate();
        fail("could not open an OpenGL 3.3 window", 1);
        return nullptr;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(headless ? 0 : 1);
    glfwSetWindowUserPointer(window, &dropped);
    glfwSetDropCallback(window, on_drop);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; our settings live in settings.json
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    install_key_taps(window);  // a key tapped between two frames still reads as pressed
    ImGui::GetIO().BackendRendererName = "attnlab_ui_renderer";
    ImGui::GetIO().BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;  // meshes past 64K vertices
    return window;
}

void close_window(GLFWwindow* window) {
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
}

AppHost::AppHost(GLFWwindow* window, UiRenderer ui_renderer)
    : ui_renderer_(std::move(ui_renderer)),
      progress_(window, ui_renderer_, [this](ImTextureID t) { return app_ && app_->heatmaps().owns(t); }),
      listening_(progress_) {}

std::unique_ptr<AppHost> AppHost::create(GLFWwindow* window, std::vector<std::string>& dropped, ViewState view,
                                         const Paths& paths, const LaunchOptions& o, bool headless) {
    auto heatmaps = HeatmapRenderer::create(paths.shaders);
    auto ui_renderer = UiRenderer::create(paths.shaders);
    if (!heatmaps || !ui_renderer) {
        fail(!heatmaps ? heatmaps.error().message : ui_renderer.error().message, 1);
        return nullptr;
    }
    std::unique_ptr<AppHost> host(new AppHost(window, std::move(*ui_renderer)));
    show_startup_frame(window, host->font_texture_, host->ui_renderer_, host->progress_, view, o.scale.value_or(0.0f),
                       o.model ? std::filesystem::path(*o.model).filename().string() : std::string());
    host->progress_.begin_frame(view.settings.korean);  // the first pass is timed from here
    std::optional<OpenProblem> problem;
    auto session = initial_session(o, paths, problem);
    if (!session) {
        fail(session.error().message, 1);
        return nullptr;
    }
    // Training and opening a model on their own threads, or between frames where there are none (the page).
    const WorkMode work = platform::has_threads() ? WorkMode::own_thread : WorkMode::between_frames;
    host->app_.emplace(std::move(*session), std::move(view), std::move(*heatmaps), paths, work);
    App& app = *host->app_;
    if (problem) app.show_open_problem(std::move(*problem));  // where the user looks, as a failed drop would be
    host->started_ = start_from_flags(app, host->font_texture_, o, headless);
    host->running_.emplace(
        Running{window, app, host->ui_renderer_, host->progress_, host->font_texture_, dropped, o, headless});
    return host;
}

// Waits for input, or until the app has something to animate (headless, it only polls unless a
// training run is going); then opens the files dropped on the window.
void poll_events(Running& r) {
    const double wait = r.app.wait_seconds();  // idle when nothing changes
    if (wait <= 0.0 || (r.headless && !r.app.training().active()))
        glfwPollEvents();
    else
        glfwWaitEventsTimeout(wait);
    if (const auto model = model_file_among(r.dropped)) r.app.open_dropped_file(*model);  // a folder's files: one model
    r.dropped.clear();
}

// One frame of the App, built in ImGui and rendered into the back buffer (a slide into the slide target, at its
// size and with no pointer, so no hover shows on it); then the PNGs the app asked for.
Frame draw_frame(Running& r) {
    Frame f;
    f.start = std::chrono::steady_clock::now();
    const float dt = std::chrono::duration<float>(f.start - r.last).count();
    r.last = f.start;
    f.slide = r.app.slides_pending() && bind_slide_target(r);
    r.progress.begin_frame(r.app.view().settings.korean);
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    if (f.slide) {
        io.DisplaySize = ImVec2(static_cast<float>(kSlideWidth), static_cast<float>(kSlideHeight));
        io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    }
    if (r.headless || f.slide) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // no stray hover in screenshots
    ImGui::NewFrame();
    f.req = r.app.frame(dt);
    ImGui::Render();
    release_held_keys(r.window);  // this frame saw the keys tapped before it down: now they go up
    if (f.slide) {
        f.fb_w = kSlideWidth, f.fb_h = kSlideHeight;
    } else {
        r.progress.keep_frame(*ImGui::GetDrawData());  // the window's picture, for the progress card
        glfwGetFramebufferSize(r.window, &f.fb_w, &f.fb_h);
    }
    glViewport(0, 0, f.fb_w, f.fb_h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];  // the tiled windows draw none
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    r.ui_renderer.render(*ImGui::GetDrawData(), [&](ImTextureID t) { return r.app.heatmaps().owns(t); });

    const auto report = [&](const std::string& path, const Status& st) {
        r.app.status = st ? std::string(tr(r.app.view().settings.korean, "Saved")) + " " + path : st.error().message;
    };
    if (f.req.save_window_png) {
        f.window_png = save_framebuffer_png(*f.req.save_window_png, 0, 0, f.fb_w, f.fb_h);
        report(*f.req.save_window_png, f.window_png);
    }
    if (f.req.save_view_png)
        report(
            *f.req.save_view_png,
            save_framebuffer_png(*f.req.save_view_png, static_cast<int>(r.app.view_x), static_cast<int>(r.app.view_y),
                                 static_cast<int>(r.app.view_w), static_cast<int>(r.app.view_h)));
    if (f.slide) OffscreenTarget::unbind();
    r.app.end_frame();  // after the saves: the last slide's puts the app back and names the folder
    if (r.app.slides_pending() != f.slide) f.req.fonts_changed = true;  // the slides' type, or the window's again
    return f;
}

// Shows the frame and does what the app asked of the window; false when it asked to quit.
bool present_frame(Running& r, const Frame& f) {
    const FrameRequests& req = f.req;
    if (!f.slide) glfwSwapBuffers(r.window);  // a slide frame drew nothing in the window: it keeps the last
    if (req.quit) return false;
    if (req.toggle_fullscreen) {
        GLFWmonitor* monitor = glfwGetPrimaryMonitor();
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (r.app.view().settings.presentation && mode)
            glfwSetWindowMonitor(r.window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
        else
            glfwSetWindowMonitor(r.window, nullptr, 80, 80, r.o.width, r.o.height, 0);
    }
    if (req.fonts_changed) rebuild_fonts(r.app, r.font_texture);
    return true;
}

InteractiveFrames::InteractiveFrames(Running& r)
    : r_(r), save_(!r.o.fresh_settings && !r.o.settings), autosave_(r.app.view().to_json()) {}

bool InteractiveFrames::next() {
    poll_events(r_);
    const Frame f = draw_frame(r_);
    if (!present_frame(r_, f)) return false;
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (save_ && autosave_.due(r_.app.view(), now))
        if (auto st = save_view_state(r_.app.view()); !st)
            r_.app.status = tr(r_.app.view().settings.korean, "Settings not saved:") + (" " + st.error().message);
    return true;
}

void InteractiveFrames::finish() {
    if (save_)
        if (auto st = save_view_state(r_.app.view()); !st) fail("settings not saved: " + st.error().message, 0);
}

}  // namespace attnlab::gui
