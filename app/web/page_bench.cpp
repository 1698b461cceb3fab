#include "page_bench.h"

#include "gl/gl.h"

#include <emscripten.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace attnlab::gui {

namespace {

// The q-quantile as the desktop's --bench-frames takes it: the sorted values' entry at q·n.
double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
}

// WebGL's finish() is only a flush in Chromium: the drawing goes on in the GPU process. Reading a pixel back waits
// for every command before it, as glFinish does on the desktop.
void wait_for_drawing() {
    unsigned char pixel[4];
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
}

}  // namespace

bool PageFrameBench::frame(Running& r) {
    const double start_ms = emscripten_get_now();
    poll_events(r);
    const Frame f = draw_frame(r);
    const auto ms_since_start = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - f.start).count();
    };
    const double app_ms = ms_since_start();
    wait_for_drawing();
    const double work_ms = ms_since_start();
    if (++drawn_ > kWarmUp) {
        app_ms_.push_back(app_ms);
        work_ms_.push_back(work_ms);
        interval_ms_.push_back(start_ms - last_start_ms_);
        if (!running()) report(r);
    }
    last_start_ms_ = start_ms;
    return present_frame(r, f);
}

void PageFrameBench::report(const Running& r) const {
    char json[320];
    std::snprintf(json, sizeof json,
                  "{\"frames\": %zu, \"p50_ms\": %.3f, \"p95_ms\": %.3f, \"interval_p50_ms\": %.3f, "
                  "\"interval_p95_ms\": %.3f, \"app_p50_ms\": %.3f, \"app_p95_ms\": %.3f, \"width\": %d, "
                  "\"height\": %d}",
                  work_ms_.size(), percentile(work_ms_, 0.5), percentile(work_ms_, 0.95),
                  percentile(interval_ms_, 0.5), percentile(interval_ms_, 0.95), percentile(app_ms_, 0.5),
                  percentile(app_ms_, 0.95), r.o.width, r.o.height);
    std::printf("%s\n", json);
    EM_ASM({ attnlabPage.benchDone(JSON.parse(UTF8ToString($0))); }, json);
}

}  // namespace attnlab::gui
