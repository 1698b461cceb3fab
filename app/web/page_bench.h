// --bench-frames N in the page (index.html?view=attention&bench-frames=150): as the desktop's run_bench_frames in
// app/gui/main.cpp, N frames after 10 of warm-up, each frame's own work timed from its start until its drawing is
// done (a pixel read back: Chromium's glFinish only flushes); and, since the browser paces the page, the interval
// between the starts of consecutive animation frames too; and the app's own part of the work: from the frame's start
// until its GL commands are issued (ImGui, the app, the renderers; the drawing itself is done in the GPU process).
// The result, once the N frames are drawn, is one line of JSON on the console (console.log) and attnlabPage.bench:
//   {"frames": N, "p50_ms", "p95_ms", "interval_p50_ms", "interval_p95_ms", "app_p50_ms", "app_p95_ms", "width",
//    "height"}
#pragma once

#include "app_host.h"

#include <string>
#include <vector>

namespace attnlab::gui {

class PageFrameBench {
public:
    explicit PageFrameBench(int frames) : frames_(frames) {}
    bool running() const { return drawn_ < kWarmUp + frames_; }
    // One animation frame: drawn, timed to glFinish and shown; false when the app asked to quit. The N-th timed
    // frame reports.
    bool frame(Running& r);

private:
    static constexpr int kWarmUp = 10;
    void report(const Running& r) const;
    int frames_;
    int drawn_ = 0;
    double last_start_ms_ = 0;          // emscripten_get_now() at the previous animation frame's start
    std::vector<double> app_ms_;        // each timed frame: its start until its GL commands are issued
    std::vector<double> work_ms_;       // each timed frame: its start until its drawing is done
    std::vector<double> interval_ms_;   // each timed frame: the previous frame's start to its own
};

}  // namespace attnlab::gui
