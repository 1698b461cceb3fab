// How large the UI is drawn on a screen: the type's pixel size and the factor ImGui's spacing grows by.
// The reference is 17 px type in a window of 1080 lines (or 1920 columns); a larger window grows the type
// with it (34 px on a 3840×2160 screen, no flag needed), as does the monitor's content scale (GLFW's, or
// --scale) when it says more. Presentation and classroom type is 1.6 times that, but never so large that the
// layout no longer fits the window. Spacing (padding, gaps, radio circles, scrollbars) grows with the type
// past its size at the reference, never shrinks below ImGui's own.
#pragma once

namespace attnlab::gui {

struct UiScaleInputs {
    float content_scale = 1.0f;  // the monitor's (GLFW) or --scale's; 0 or less: 1
    int width = 0, height = 0;   // the framebuffer in pixels; 0: unknown (no window yet)
    float font_scale = 1.0f;     // the user's A-slider
    bool large_type = false;     // presentation or classroom mode
};

struct UiScale {
    float font_pixels = 17.0f;
    float style_scale = 1.0f;  // for ImGuiStyle::ScaleAllSizes on ImGui's default style
};

inline constexpr float kReferenceFontPixels = 17.0f;
inline constexpr int kReferenceWidth = 1920, kReferenceHeight = 1080;

UiScale ui_scale(const UiScaleInputs& in);

}  // namespace attnlab::gui
