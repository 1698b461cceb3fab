// The type's size from the screen, the window and the mode; the spacing's factor from the type.
#include "ui_scale.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

// The fewest font heights (em) the layout needs across and down: the side panel's 16 em beside a
// view of 36, and a view of about 20 lines between the menu and the stepper.
constexpr float kLayoutWidthEm = 52.0f, kLayoutHeightEm = 28.0f;
constexpr float kLargeType = 1.6f;

}  // namespace

UiScale ui_scale(const UiScaleInputs& in) {
    const float mode = in.large_type ? kLargeType : 1.0f;
    float screen = in.content_scale > 0.0f ? in.content_scale : 1.0f;
    if (in.width > 0 && in.height > 0) {
        const float window = std::min(static_cast<float>(in.width) / static_cast<float>(kReferenceWidth),
                                      static_cast<float>(in.height) / static_cast<float>(kReferenceHeight));
        screen = std::max(screen, window);  // a 4K laptop's scale 2 and its 3840×2160 window say the same once
    }
    const float wanted = kReferenceFontPixels * screen * in.font_scale * mode;
    UiScale out;
    out.font_pixels = wanted;
    if (in.width > 0 && in.height > 0) {
        const float fits = std::min(static_cast<float>(in.width) / kLayoutWidthEm,
                                    static_cast<float>(in.height) / kLayoutHeightEm);
        out.font_pixels = std::floor(std::max(std::min(wanted, fits), 10.0f));
    }
    out.style_scale = std::max(1.0f, out.font_pixels / (kReferenceFontPixels * mode));
    return out;
}

}  // namespace attnlab::gui
