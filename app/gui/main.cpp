// attnlab: the desktop app. Opens a GLFW window with an OpenGL 3.3 context, runs Dear ImGui, and
// draws the App every frame in one run mode: the interactive window, or headless --screenshot,
// --tour-slides, --soak, --bench-frames or --bench-edit, which exit when done.
#include "app.h"
#include "bench_edit.h"
#include "default_model.h"
#include "fonts.h"
#include "gl/font_texture.h"
#include "gl/gl.h"
#include "gl/offscreen_target.h"
#include "gl/ui_renderer.h"
#include "i18n.h"
#include "io/file_bytes.h"
#include "key_taps.h"
#include "launch_options.h"
#include "memory_reuse.h"
#include "model_opener.h"
#include "parallel.h"
#include "progress_screen.h"
#include "screenshot.h"
#include "settings_autosave.h"
#include "soak_driver.h"
#include "startup_frame.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

int fail(const std::string& message, int code) {
    std::fprintf(stderr, "attnlab: %s\n", message.c_str());
    return code;
}

// assets/ and shaders/ beside the executable's parent (a build tree), or in the source tree.
Paths find_paths(const char* argv0) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::canonical(fs::path(argv0), ec);
    for (const fs::path& root : {exe.parent_path().parent_path(), fs::path(ATTNLAB_SOURCE_DIR)})
        if (fs::exists(root / "shaders" / "heatmap.frag") && fs::exists(root / "assets"))
            return {(root / "assets").string(), (root / "shaders").string()};
    return {std::string(ATTNLAB_SOURCE_DIR) + "/assets", std::string(ATTNLAB_SOURCE_DIR) + "/shaders"};
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

// The soak's verdict on stdout as JSON, and its exit code: 1 if memory grew or commands failed.
int report_soak(const SoakDriver& soak, int frames) {
    // Samples at the same screen still wander by about ±4 MiB, rising and falling back (tests/README.md);
    // a leaked model, trace or texture per model change goes far past 16 MiB.
    constexpr int64_t kToleranceKib = 16 * 1024;
    std::printf("{\"frames\": %d, \"failed_commands\": %d, \"memory\": %s}\n", frames, soak.failed_commands(),
                soak.memory().json().c_str());
    if (soak.failed_commands() > 0) return fail(std::to_string(soak.failed_commands()) + " soak commands failed", 1);
    if (!soak.memory().flat(kToleranceKib))
        return fail("resident memory grew after warm-up (more than 16 MiB): " + soak.memory().json(), 1);
    return 0;
}

double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
}

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

// A GLFW window with an OpenGL 3.3 core context and ImGui's GLFW backend; nullptr (said on stderr) if none.
// Files dropped on it are appended to `dropped`.
GLFWwindow* open_window(const LaunchOptions& o, bool headless, std::vector<std::string>& dropped) {
    if (!glfwInit()) {
        fail("no display: set DISPLAY, or run under xvfb-run (e.g. xvfb-run -a attnlab --screenshot out.png)", 1);
        return nullptr;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
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
        if (o.train_task) form.task = *o.train_task;
        TrainJob job = train_job(form);
        job.final_full_eval = !headless;  // a screenshot shows the live scores; no wait for all 500
        if (!app.start_training(job)) {
            fail(app.session().error(), 1);
            started = false;
        }
    }
    if (o.generate_tokens > 0 && !app.start_generation()) {
        fail("--generate: this model does not generate", 1);
        started = false;
    }
    return started;
}

// ---- the frame, shared by every run mode ----

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

// Waits for input, or until the app has something to animate (headless, it only polls unless a
// training run is going); then opens the files dropped on the window.
void poll_events(Running& r) {
    const double wait = r.app.wait_seconds();  // idle when nothing changes
    if (wait <= 0.0 || (r.headless && !r.app.training().active()))
        glfwPollEvents();
    else
        glfwWaitEventsTimeout(wait);
    for (const auto& path : r.dropped) r.app.open_dropped_file(path);
    r.dropped.clear();
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

// ---- the run modes ----

// The window a user works in, until it is closed. The settings are saved (atomically) within about a
// second of each change, and once more on the way out.
int run_interactive(Running& r) {
    const bool save = !r.o.fresh_settings && !r.o.settings;
    SettingsAutosave autosave(r.app.view().to_json());
    const auto start = std::chrono::steady_clock::now();
    while (!glfwWindowShouldClose(r.window)) {
        poll_events(r);
        const Frame f = draw_frame(r);
        if (!present_frame(r, f)) break;
        const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (save && autosave.due(r.app.view(), now))
            if (auto st = save_view_state(r.app.view()); !st)
                r.app.status = tr(r.app.view().settings.korean, "Settings not saved:") + (" " + st.error().message);
    }
    if (save)
        if (auto st = save_view_state(r.app.view()); !st) fail("settings not saved: " + st.error().message, 0);
    return 0;
}

// --screenshot: the window as a PNG after --frames frames, once no training run is going, and with
// --generate N in the frame that shows the N-th new token (or the first after the generation ended).
int run_screenshot(Running& r) {
    int frames_idle = 0;  // frames drawn since a training run was last going (the screenshot waits for 2)
    for (int frame = 1; !glfwWindowShouldClose(r.window); ++frame) {
        poll_events(r);
        const Frame f = draw_frame(r);
        frames_idle = r.app.training().active() ? 0 : frames_idle + 1;
        const GenerationPlayer& generation = r.app.view().output.animation;
        const bool generating = generation.active() && generation.appended() < r.o.generate_tokens;
        if (frame >= r.o.frames && frames_idle >= 2 && !generating) {
            if (auto st = save_framebuffer_png(*r.o.screenshot, 0, 0, f.fb_w, f.fb_h); !st)
                return fail(st.error().message, 1);
            if (const std::string problem = r.o.check_tour_target ? r.app.tour_target_problem() : ""; !problem.empty())
                return fail(problem, 1);
            return 0;
        }
        if (!present_frame(r, f)) break;
    }
    return 0;
}

// --tour N --tour-slides DIR: frames until the chapter's slides (started by start_from_flags) are written.
int run_tour_slides(Running& r) {
    while (!glfwWindowShouldClose(r.window)) {
        poll_events(r);
        const Frame f = draw_frame(r);
        if (!f.window_png) return fail(f.window_png.error().message, 1);
        if (!r.app.slides_pending()) break;
        if (!present_frame(r, f)) break;
    }
    return 0;
}

// --soak N: N frames driven by the SoakDriver; 1 if resident memory grew or commands failed.
int run_soak(Running& r, const Paths& paths) {
    SoakDriver soak(r.o.soak_frames, bundled_model_files(paths.assets));
    int frame = 0;
    while (!glfwWindowShouldClose(r.window)) {
        poll_events(r);
        soak.before_frame(r.app, frame);
        const Frame f = draw_frame(r);
        ++frame;
        soak.after_frame(frame);
        if (soak.finished(frame)) break;
        if (!present_frame(r, f)) break;
    }
    return report_soak(soak, frame);
}

// --bench-frames N: N frames after 10 of warm-up, each timed to glFinish; p50 and p95 on stdout as JSON.
int run_bench_frames(Running& r) {
    std::vector<double> frame_ms;
    for (int frame = 1; !glfwWindowShouldClose(r.window); ++frame) {
        poll_events(r);
        const Frame f = draw_frame(r);
        glFinish();
        frame_ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - f.start).count());
        if (frame >= r.o.bench_frames + 10) break;
        if (!present_frame(r, f)) break;
    }
    frame_ms.erase(frame_ms.begin(), frame_ms.begin() + std::min<size_t>(10, frame_ms.size()));  // warm-up
    std::printf("{\"frames\": %zu, \"p50_ms\": %.3f, \"p95_ms\": %.3f, \"width\": %d, \"height\": %d}\n",
                frame_ms.size(), percentile(frame_ms, 0.5), percentile(frame_ms, 0.95), r.o.width, r.o.height);
    return 0;
}

// What the stepper's reports reach while a bare stepper runs: nothing.
struct Deaf : ProgressListener {
    void on_progress(const WorkProgress&) override {}
};

// --bench-edit POS: one letter typed after token POS of the prompt, as the input field applies it, three times
// (each undone, untimed). Each edit is paired with the same ids' edit on a bare stepper (the app's config, weights
// and inputs, heard by no one), as attnlab-cli bench --edits times it, in the same seconds. On stdout as JSON,
// medians: the app's re-run (the session's command: tokenising, the stepper's re-run and the progress card drawn as
// the app draws it), of which the cards alone and the tokenising alone; the frame after it, to glFinish; the bare
// stepper's edit, and the app's re-run over it. 1 if the prompt has no such token.
int run_bench_edit(Running& r) {
    constexpr int kEdits = 3;
    Session& s = r.app.session();
    const auto edited = text_with_letter_after_token(s, static_cast<size_t>(*r.o.bench_edit), 'x');
    if (!edited) return fail("--bench-edit: the prompt has no typed token " + std::to_string(*r.o.bench_edit), 1);
    const bool target = bench_edit_types_target(s);
    const std::string original = target ? s.tgt_text() : s.src_text();
    auto type = [&](const std::string& text) { return target ? s.set_tgt_text(text) : s.set_src_text(text); };
    auto show = [&] {
        poll_events(r);
        const Frame f = draw_frame(r);
        glFinish();
        present_frame(r, f);
    };
    auto side_ids = [&]() -> const std::vector<int>& {
        return target ? s.stepper().inputs().tgt_ids : s.stepper().inputs().src_ids;
    };
    Deaf deaf;
    auto bare = Stepper::create(s.stepper().config(), s.stepper().weights(), s.stepper().inputs());
    if (!bare) return fail("--bench-edit: " + bare.error().message, 1);
    auto set_bare = [&](const std::vector<int>& ids) {
        const ListenToProgress quiet(deaf);
        (void)(target ? bare->set_tgt_ids(ids) : bare->set_src_ids(ids));
    };
    set_bare(side_ids());
    {
        const ListenToProgress quiet(deaf);
        bare->run_all();
    }
    for (int frame = 0; frame < 10; ++frame) show();  // warm-up: textures made, layouts measured
    using Clock = std::chrono::steady_clock;
    auto ms_since = [](Clock::time_point t0) {
        return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    };
    auto n_tokens = [&] { return s.stepper().inputs().src_ids.size() + s.stepper().inputs().tgt_ids.size(); };
    std::vector<double> rerun_ms, card_ms, encode_ms, frame_ms, bare_ms, ratio;
    const size_t tokens_before = n_tokens();
    const std::vector<int> ids_before = side_ids();
    size_t tokens_after = 0, steps_rerun = 0;
    int cards = 0;
    for (int n = 0; n < kEdits; ++n) {
        auto t0 = Clock::now();
        if (!(target ? encode_target_text(s.model(), *edited) : encode_source_text(s.model(), *edited)))
            return fail("--bench-edit: the edited prompt does not tokenise", 1);
        encode_ms.push_back(ms_since(t0));
        r.progress.begin_frame(r.app.view().settings.korean);  // the card is timed from the keystroke's frame
        const double drawing = r.progress.seconds_drawing();
        const int drawn = r.progress.cards_drawn();
        t0 = Clock::now();
        if (!type(*edited)) return fail("--bench-edit: " + s.error(), 1);
        rerun_ms.push_back(ms_since(t0));
        card_ms.push_back(1e3 * (r.progress.seconds_drawing() - drawing));
        cards += r.progress.cards_drawn() - drawn;
        steps_rerun = s.stepper().last_computed();
        tokens_after = n_tokens();
        const std::vector<int> ids_after = side_ids();
        t0 = Clock::now();
        show();
        frame_ms.push_back(ms_since(t0));
        if (!type(original)) return fail("--bench-edit: " + s.error(), 1);
        show();
        t0 = Clock::now();
        set_bare(ids_after);
        bare_ms.push_back(ms_since(t0));
        set_bare(ids_before);
        ratio.push_back(rerun_ms.back() / bare_ms.back());
    }
    std::printf(
        "{\"pos\": %d, \"tokens_before\": %zu, \"tokens_after\": %zu, \"steps_rerun\": %zu, \"threads\": %d, "
        "\"edits\": %d, \"rerun_median_ms\": %.3f, \"cards_median_ms\": %.3f, \"cards_drawn\": %d, "
        "\"tokenise_median_ms\": %.3f, \"frame_after_median_ms\": %.3f, \"bare_stepper_median_ms\": %.3f, "
        "\"rerun_over_bare_median\": %.3f, \"width\": %d, \"height\": %d}\n",
        *r.o.bench_edit, tokens_before, tokens_after, steps_rerun, thread_count(), kEdits, percentile(rerun_ms, 0.5),
        percentile(card_ms, 0.5), cards, percentile(encode_ms, 0.5), percentile(frame_ms, 0.5),
        percentile(bare_ms, 0.5), percentile(ratio, 0.5), r.o.width, r.o.height);
    return 0;
}

// The renderers in the window's GL context, the first frame, the model, and the App set up as the flags ask,
// run in the flags' mode.
int run_app(GLFWwindow* window, std::vector<std::string>& dropped, ViewState view, const Paths& paths,
            const LaunchOptions& o, bool headless) {
    FontTexture font_texture;
    auto heatmaps = HeatmapRenderer::create(paths.shaders);
    auto ui_renderer = UiRenderer::create(paths.shaders);
    if (!heatmaps || !ui_renderer) return fail(!heatmaps ? heatmaps.error().message : ui_renderer.error().message, 1);
    std::optional<App> app;  // once the model is open
    ProgressScreen progress(window, *ui_renderer, [&](ImTextureID t) { return app && app->heatmaps().owns(t); });
    const ListenToProgress listening(progress);  // the stepper's long work, on this thread
    show_startup_frame(window, font_texture, *ui_renderer, progress, view, o.scale.value_or(0.0f),
                       o.model ? std::filesystem::path(*o.model).filename().string() : std::string());
    progress.begin_frame(view.settings.korean);  // the first pass is timed from here
    std::optional<OpenProblem> problem;
    auto session = initial_session(o, paths, problem);
    if (!session) return fail(session.error().message, 1);
    app.emplace(std::move(*session), std::move(view), std::move(*heatmaps), paths);
    if (problem) app->show_open_problem(std::move(*problem));  // where the user looks, as a failed drop would be
    const bool started = start_from_flags(*app, font_texture, o, headless);
    if (!started && o.tour_slides) return 1;  // no chapter, no slides

    Running r{window, *app, *ui_renderer, progress, font_texture, dropped, o, headless};
    int code = 0;
    if (o.tour_slides)
        code = run_tour_slides(r);
    else if (o.soak_frames > 0)
        code = run_soak(r, paths);
    else if (o.bench_frames > 0)
        code = run_bench_frames(r);
    else if (o.bench_edit)
        code = run_bench_edit(r);
    else if (o.screenshot)
        code = run_screenshot(r);
    else
        code = run_interactive(r);
    return started ? code : 1;
}

}  // namespace

int main(int argc, char** argv) {
    attnlab::keep_freed_memory_for_reuse();
    auto options = parse_launch_options(std::vector<std::string>(argv + 1, argv + argc));
    if (!options) {
        std::fputs(launch_usage().c_str(), stderr);
        return fail(options.error().message, 2);
    }
    const LaunchOptions o = *options;
    if (o.help) {
        std::fputs(launch_usage().c_str(), stdout);
        return 0;
    }
    if (o.threads) set_thread_count(*o.threads);
    if (o.tour_slides && !o.tour) return fail("--tour-slides needs --tour N: the chapter to write", 2);
    const int n_modes = (o.screenshot ? 1 : 0) + (o.bench_frames > 0) + (o.bench_edit ? 1 : 0) + (o.soak_frames > 0) +
                        (o.tour_slides ? 1 : 0);
    if (n_modes > 1) return fail("give one of --screenshot, --bench-frames, --bench-edit, --soak and --tour-slides", 2);
    const bool headless = n_modes == 1;
    const Paths paths = find_paths(argv[0]);
    auto view = initial_view(o, headless);
    if (!view) return fail(view.error().message, 1);

    std::vector<std::string> dropped;
    GLFWwindow* window = open_window(o, headless, dropped);
    if (!window) return 1;
    const int code = run_app(window, dropped, std::move(*view), paths, o, headless);
    close_window(window);
    return code;
}
