// attnlab: the desktop app. Opens a GLFW window with an OpenGL 3.3 context, runs Dear ImGui,
// and draws the App every frame; headless flags write a screenshot or time frames and exit.
#include "app.h"
#include "default_model.h"
#include "fonts.h"
#include "i18n.h"
#include "gl/font_texture.h"
#include "gl/gl.h"
#include "gl/ui_renderer.h"
#include "io/file_bytes.h"
#include "hf/open_model.h"
#include "launch_options.h"
#include "memory_reuse.h"
#include "screenshot.h"
#include "soak_driver.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>

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

Result<Session> initial_session(const LaunchOptions& o, const Paths& paths) {
    if (o.model) {
        auto loaded = open_model(*o.model);
        if (!loaded) return loaded.error();
        const bool has_text_vocab = loaded->model.src_vocab || loaded->model.tgt_vocab;
        return Session::from_model(std::move(loaded->model), *o.model,
                                   o.src.value_or(has_text_vocab ? kExampleSource : ""), "");
    }
    std::string warning;
    auto session = default_session(paths.assets, o.preset, o.src, &warning);
    if (!warning.empty()) fail("the bundled model was not opened: " + warning, 0);
    return session;
}

void on_drop(GLFWwindow* window, int count, const char** paths) {
    auto* dropped = static_cast<std::vector<std::string>*>(glfwGetWindowUserPointer(window));
    for (int i = 0; i < count; ++i) dropped->push_back(paths[i]);
}

void rebuild_fonts(App& app, FontTexture& font_texture) {
    const std::string used = load_ui_font(app.font_pixels());
    app.font_warning = used.empty() ? tr(app.view().korean, "Hangul font not found: install fonts-nanum") : "";
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

}  // namespace

int main(int argc, char** argv) {
    attnlab::keep_freed_memory_for_reuse();
    auto options = parse_launch_options(std::vector<std::string>(argv + 1, argv + argc));
    if (!options) {
        std::fputs(kLaunchUsage, stderr);
        return fail(options.error().message, 2);
    }
    const LaunchOptions& o = *options;
    if (o.help) {
        std::fputs(kLaunchUsage, stdout);
        return 0;
    }
    if (o.tour_slides && !o.tour) return fail("--tour-slides needs --tour N: the chapter to write", 2);
    const bool headless = o.screenshot || o.bench_frames > 0 || o.soak_frames > 0 || o.tour_slides;
    const Paths paths = find_paths(argv[0]);

    auto session = initial_session(o, paths);
    if (!session) return fail(session.error().message, 1);
    if (o.step) session->run_to(static_cast<size_t>(*o.step));

    ViewState view = o.fresh_settings || headless ? ViewState{} : load_view_state();
    if (o.settings) {
        auto bytes = io::read_file_bytes(*o.settings);
        if (!bytes) return fail(bytes.error().message, 1);
        view = ViewState::from_json(std::string(bytes->begin(), bytes->end()));
    }
    if (o.korean) view.korean = true;
    if (o.presentation) view.presentation = true;
    if (o.light) view.dark_theme = false;
    if (o.classroom) view.classroom = true;
    if (o.predict) view.predict = true;

    if (!glfwInit()) return fail("no display: set DISPLAY, or run under xvfb-run (e.g. xvfb-run -a attnlab --screenshot out.png)", 1);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_DEPTH_BITS, 0);  // ImGui needs neither; llvmpipe's fast path needs no depth buffer
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    GLFWwindow* window = glfwCreateWindow(o.width, o.height, "Attention Lab", nullptr, nullptr);
    if (!window) {
        glfwTerminate();
        return fail("could not open an OpenGL 3.3 window", 1);
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(headless ? 0 : 1);
    std::vector<std::string> dropped;
    glfwSetWindowUserPointer(window, &dropped);
    glfwSetDropCallback(window, on_drop);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; our settings live in settings.json
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui::GetIO().BackendRendererName = "attnlab_ui_renderer";
    ImGui::GetIO().BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;  // meshes past 64K vertices

    int exit_code = 0;
    {
        FontTexture font_texture;
        auto heatmaps = HeatmapRenderer::create(paths.shaders);
        auto ui_renderer = UiRenderer::create(paths.shaders);
        if (!heatmaps || !ui_renderer) {
            exit_code = fail(!heatmaps ? heatmaps.error().message : ui_renderer.error().message, 1);
        } else {
            App app(std::move(*session), std::move(view), std::move(*heatmaps), paths);
            if (o.view) {
                View v;
                view_from_id(*o.view, v);
                app.show_view(v);
            }
            rebuild_fonts(app, font_texture);
            if (o.tour && !app.open_tour_chapter(*o.tour - 1)) exit_code = fail(app.status, 1);
            if (o.tour_slides && exit_code == 0) {
                std::error_code ec;
                std::filesystem::create_directories(*o.tour_slides, ec);
                app.export_tour_slides(*o.tour_slides);
            }
            if (o.train_steps > 0) {
                TrainForm& form = app.view().train;  // the form shows the run the flags started
                form.steps = o.train_steps;
                if (o.train_task) form.task = *o.train_task;
                TrainJob job = train_job(form);
                job.final_full_eval = !headless;  // a screenshot shows the live scores; no wait for all 500
                if (!app.start_training(job)) exit_code = fail(app.session().error(), 1);
            }

            std::optional<SoakDriver> soak;
            if (o.soak_frames > 0) soak.emplace(o.soak_frames, bundled_model_files(paths.assets));
            std::vector<double> frame_ms;
            int frame = 0;
            int frames_idle = 0;  // frames drawn since a training run was last going (a screenshot waits for 2)
            auto last = std::chrono::steady_clock::now();
            while (!glfwWindowShouldClose(window)) {
                const double wait = app.wait_seconds();  // idle when nothing changes
                if (wait <= 0.0 || (headless && !app.training().active())) glfwPollEvents();
                else glfwWaitEventsTimeout(wait);
                for (const auto& path : dropped) app.open_dropped_file(path);
                dropped.clear();

                if (soak) soak->before_frame(app, frame);
                const auto t0 = std::chrono::steady_clock::now();
                const float dt = std::chrono::duration<float>(t0 - last).count();
                last = t0;
                ImGui_ImplGlfw_NewFrame();
                if (headless) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // no stray hover in screenshots
                ImGui::NewFrame();
                const FrameRequests req = app.frame(dt);
                ImGui::Render();
                int fb_w = 0, fb_h = 0;
                glfwGetFramebufferSize(window, &fb_w, &fb_h);
                glViewport(0, 0, fb_w, fb_h);
                const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];  // the tiled windows draw none
                glClearColor(bg.x, bg.y, bg.z, 1.0f);
                glClear(GL_COLOR_BUFFER_BIT);
                ui_renderer->render(*ImGui::GetDrawData(), [&](ImTextureID t) { return app.heatmaps().owns(t); });
                app.end_frame();
                ++frame;

                const auto report = [&](const std::string& path, const Status& st) {
                    app.status = st ? std::string(tr(app.view().korean, "Saved")) + " " + path : st.error().message;
                };
                if (req.save_window_png) {
                    const Status st = save_framebuffer_png(*req.save_window_png, 0, 0, fb_w, fb_h);
                    report(*req.save_window_png, st);
                    if (!st && o.tour_slides) exit_code = fail(st.error().message, 1);
                }
                if (req.save_view_png)
                    report(*req.save_view_png,
                           save_framebuffer_png(*req.save_view_png, static_cast<int>(app.view_x), static_cast<int>(app.view_y),
                                                static_cast<int>(app.view_w), static_cast<int>(app.view_h)));
                frames_idle = app.training().active() ? 0 : frames_idle + 1;
                if (o.screenshot && frame >= o.frames && frames_idle >= 2) {
                    if (auto st = save_framebuffer_png(*o.screenshot, 0, 0, fb_w, fb_h); !st)
                        exit_code = fail(st.error().message, 1);
                    break;
                }
                if (o.tour_slides && (exit_code != 0 || !app.slides_pending())) break;
                if (soak) {
                    soak->after_frame(frame);
                    if (soak->finished(frame)) break;
                }
                if (o.bench_frames > 0) {
                    glFinish();
                    frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
                    if (frame >= o.bench_frames + 10) break;
                }
                glfwSwapBuffers(window);
                if (req.quit) break;
                if (req.toggle_fullscreen) {
                    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
                    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
                    if (app.view().presentation && mode)
                        glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
                    else
                        glfwSetWindowMonitor(window, nullptr, 80, 80, o.width, o.height, 0);
                }
                if (req.fonts_changed) rebuild_fonts(app, font_texture);
            }
            if (o.bench_frames > 0) {
                frame_ms.erase(frame_ms.begin(), frame_ms.begin() + std::min<size_t>(10, frame_ms.size()));  // warm-up
                std::printf("{\"frames\": %zu, \"p50_ms\": %.3f, \"p95_ms\": %.3f, \"width\": %d, \"height\": %d}\n",
                            frame_ms.size(), percentile(frame_ms, 0.5), percentile(frame_ms, 0.95), o.width, o.height);
            }
            if (soak) exit_code = report_soak(*soak, frame);
            if (!headless && !o.fresh_settings && !o.settings)
                if (auto st = save_view_state(app.view()); !st) fail("settings not saved: " + st.error().message, 0);
        }
    }
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}
