// ui_scale: the type grows with a window past 1920×1080 (a 4K screen needs no --scale), classroom type
// grows too, spacing grows with the type, and projector sizes keep the type that fits their layout.
#include "ui_scale.h"

#include <catch2/catch.hpp>

using attnlab::gui::ui_scale;
using attnlab::gui::UiScaleInputs;

namespace {

UiScaleInputs screen(int w, int h, bool large_type = false, float content_scale = 1.0f) {
    UiScaleInputs in;
    in.width = w;
    in.height = h;
    in.large_type = large_type;
    in.content_scale = content_scale;
    return in;
}

}  // namespace

TEST_CASE("a 3840x2160 window without --scale draws the type as large for its height as 1920x1080 does") {
    for (bool classroom : {false, true}) {
        INFO("classroom " << classroom);
        const auto hd = ui_scale(screen(1920, 1080, classroom)), uhd = ui_scale(screen(3840, 2160, classroom));
        CHECK(uhd.font_pixels / 2160.0f == Approx(hd.font_pixels / 1080.0f).epsilon(0.05));
        CHECK(uhd.style_scale == Approx(2.0f).epsilon(0.05));  // padding and gaps grow with the type
    }
    CHECK(ui_scale(screen(1920, 1080)).font_pixels == attnlab::gui::kReferenceFontPixels);
}

TEST_CASE("a --scale of 2 on a 4K screen scales spacing too, and is not counted twice with the window's size") {
    const auto flagged = ui_scale(screen(3840, 2160, false, 2.0f)), plain = ui_scale(screen(3840, 2160));
    CHECK(flagged.style_scale == Approx(2.0f));
    CHECK(flagged.font_pixels == plain.font_pixels);
    // A small window on a scale-2 monitor still gets the monitor's larger type (as far as the layout fits).
    CHECK(ui_scale(screen(2000, 1200, false, 2.0f)).font_pixels > ui_scale(screen(2000, 1200)).font_pixels);
}

TEST_CASE("projector sizes keep their type: 17 px, or classroom type that fits the layout, and ImGui's spacing") {
    for (auto [w, h] : {std::pair{1024, 768}, std::pair{1280, 720}, std::pair{1366, 768}}) {
        INFO(w << "x" << h);
        const auto normal = ui_scale(screen(w, h)), classroom = ui_scale(screen(w, h, true));
        CHECK(normal.font_pixels == attnlab::gui::kReferenceFontPixels);
        CHECK(normal.style_scale == 1.0f);
        CHECK(classroom.font_pixels > normal.font_pixels);
        CHECK(classroom.font_pixels * 52.0f <= static_cast<float>(w));  // the layout's 52 em across still fit
        CHECK(classroom.style_scale == 1.0f);
    }
}
