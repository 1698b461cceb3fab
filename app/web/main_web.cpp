// attnlab in a web page: the desktop app's AppHost and frames, driven by the browser's animation frames.
//
// index.html turns the page's query into flags (…/index.html?korean&tour=2 is attnlab --korean --tour 2) and the
// canvas's size into --size, mounts the browser's storage for the settings, and shows what goes wrong in the page.
// The canvas follows the browser window's size; a file dropped on it opens as on the desktop. With
// ?bench-frames=N the first frames are timed (page_bench.h), then the page goes on as usual.
#include "app_host.h"
#include "launch_options.h"
#include "page_bench.h"
#include "platform/memory.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

// Everything the page's frames use; it lives as long as the page.
struct PageLoop {
    GLFWwindow* window;
    std::vector<std::string> dropped;
    LaunchOptions options;
    std::unique_ptr<AppHost> host;
    std::unique_ptr<InteractiveFrames> frames;
    std::optional<PageFrameBench> bench = std::nullopt;  // with --bench-frames, until its frames are drawn
    long frames_drawn = 0;
};

// The canvas's size in CSS pixels, as index.html lays it out (the whole browser window).
void follow_canvas_size(GLFWwindow* window) {
    double css_w = 0, css_h = 0;
    emscripten_get_element_css_size("#canvas", &css_w, &css_h);
    int w = 0, h = 0;
    glfwGetWindowSize(window, &w, &h);
    if (css_w >= 1 && css_h >= 1 && (static_cast<int>(css_w) != w || static_cast<int>(css_h) != h))
        glfwSetWindowSize(window, static_cast<int>(css_w), static_cast<int>(css_h));
}

void frame(void* arg) {
    auto& loop = *static_cast<PageLoop*>(arg);
    follow_canvas_size(loop.window);
    const bool benched = loop.bench && loop.bench->running();
    const bool go_on = benched ? loop.bench->frame(loop.host->running()) : loop.frames->next();
    if (!go_on) {  // Quit in the page: the settings are saved and the page says it ended
        loop.frames->finish();
        emscripten_cancel_main_loop();
        EM_ASM(attnlabPage.ended(););
        return;
    }
    ++loop.frames_drawn;
    EM_ASM({ attnlabPage.frameDrawn($0); }, loop.frames_drawn);  // the browser test waits for these
}

}  // namespace

int main(int argc, char** argv) {
    platform::keep_freed_memory_for_reuse();
    auto options = parse_launch_options(std::vector<std::string>(argv + 1, argv + argc));
    if (!options) return say_failure(options.error().message, 2);
    auto view = initial_view(*options, false);
    if (!view) return say_failure(view.error().message, 1);

    auto* loop = new PageLoop{nullptr, {}, *options, nullptr, nullptr};  // never freed: the page is the program
    loop->window = open_window(loop->options, false, loop->dropped);
    if (!loop->window) return 1;
    const Paths paths{"/attnlab/assets", "/attnlab/shaders"};  // packed by cmake/web_page.cmake
    loop->host = AppHost::create(loop->window, loop->dropped, std::move(*view), paths, loop->options, false);
    if (!loop->host) return 1;
    loop->frames = std::make_unique<InteractiveFrames>(loop->host->running());
    if (loop->options.bench_frames > 0) loop->bench.emplace(loop->options.bench_frames);
    emscripten_set_main_loop_arg(frame, loop, 0, false);
    return 0;
}
