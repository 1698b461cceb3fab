// attnlab: the desktop app. Opens a GLFW window with an OpenGL 3.3 context, runs Dear ImGui, and
// draws the App every frame in one run mode: the interactive window, or headless --screenshot,
// --tour-slides, --soak, --bench-frames or --bench-edit, which exit when done.
#include "app_host.h"
#include "bench_edit.h"
#include "default_model.h"
#include "gl/gl.h"
#include "i18n.h"
#include "io/file_bytes.h"
#include "launch_options.h"
#include "parallel.h"
#include "platform/memory.h"
#include "screenshot.h"
#include "soak_driver.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

int fail(const std::string& message, int code) { return say_failure(message, code); }

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





// ---- the run modes ----

// The window a user works in, until it is closed.
int run_interactive(Running& r) {
    InteractiveFrames frames(r);
    while (!glfwWindowShouldClose(r.window) && frames.next()) {
    }
    frames.finish();
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

// The App set up as the flags ask (AppHost), run in the flags' mode.
int run_app(GLFWwindow* window, std::vector<std::string>& dropped, ViewState view, const Paths& paths,
            const LaunchOptions& o, bool headless) {
    auto host = AppHost::create(window, dropped, std::move(view), paths, o, headless);
    if (!host) return 1;
    const bool started = host->started();
    if (!started && o.tour_slides) return 1;  // no chapter, no slides
    Running& r = host->running();
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
    platform::keep_freed_memory_for_reuse();
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
