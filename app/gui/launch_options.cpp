// Parses attnlab's flags; unknown flags and bad numbers are errors.
#include "launch_options.h"

#include "view_state.h"

#include <charconv>

namespace attnlab::gui {

const char* kLaunchUsage =
    "usage: attnlab [--model FILE | --preset tiny|base] [--src TEXT] [--view NAME] [--korean] [--presentation] [--light]\n"
    "               [--screenshot OUT.png [--frames N]] [--bench-frames N] [--size WxH] [--step N] [--fresh-settings] [--settings FILE]\n"
    "views: positional attention masks residual ffn output weights input model stepper\n";

namespace {

std::optional<int> to_int(const std::string& s, int lo, int hi) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
    return v;
}

}  // namespace

Result<LaunchOptions> parse_launch_options(const std::vector<std::string>& args) {
    LaunchOptions o;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= args.size()) return std::nullopt;
            return args[++i];
        };
        if (a == "--korean") { o.korean = true; continue; }
        if (a == "--presentation") { o.presentation = true; continue; }
        if (a == "--light") { o.light = true; continue; }
        if (a == "--fresh-settings") { o.fresh_settings = true; continue; }
        const auto v = value();
        if (!v) return Error{a.starts_with("--") ? a + " needs a value" : "unexpected argument '" + a + "'"};
        if (a == "--screenshot") o.screenshot = *v;
        else if (a == "--view") {
            View view;
            if (!view_from_id(*v, view)) return Error{"unknown view '" + *v + "'"};
            o.view = *v;
        } else if (a == "--src") o.src = *v;
        else if (a == "--model") o.model = *v;
        else if (a == "--settings") o.settings = *v;
        else if (a == "--preset") {
            if (*v != "tiny" && *v != "base") return Error{"--preset takes tiny or base"};
            o.preset = *v;
        } else if (a == "--step") {
            auto n = to_int(*v, 0, 1000000);
            if (!n) return Error{"--step takes a step count (0 = nothing run yet)"};
            o.step = *n;
        } else if (a == "--frames" || a == "--bench-frames") {
            auto n = to_int(*v, 1, 1000000);
            if (!n) return Error{a + " takes a positive integer"};
            (a == "--frames" ? o.frames : o.bench_frames) = *n;
        } else if (a == "--size") {
            const auto x = v->find('x');
            auto w = x == std::string::npos ? std::nullopt : to_int(v->substr(0, x), 320, 8192);
            auto h = x == std::string::npos ? std::nullopt : to_int(v->substr(x + 1), 240, 8192);
            if (!w || !h) return Error{"--size takes WIDTHxHEIGHT, e.g. 1600x900"};
            o.width = *w;
            o.height = *h;
        } else {
            return Error{"unknown option " + a};
        }
    }
    if (o.model && o.preset) return Error{"give --model or --preset, not both"};
    return o;
}

}  // namespace attnlab::gui
