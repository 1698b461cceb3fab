// The diverging ramp (diverging_ramp.h): five stops, blue through white to red, interpolated linearly.
#include "widgets/diverging_ramp.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

constexpr float kStops[5][3] = {{0.020f, 0.188f, 0.380f},
                                {0.400f, 0.660f, 0.860f},
                                {0.970f, 0.970f, 0.970f},
                                {0.940f, 0.520f, 0.400f},
                                {0.404f, 0.000f, 0.051f}};

}  // namespace

ImVec4 diverging_ramp(float t) {
    const float x = (std::clamp(t, -1.0f, 1.0f) + 1.0f) * 2.0f;
    const int i = std::clamp(static_cast<int>(x), 0, 3);
    const float f = x - static_cast<float>(i);
    return ImVec4(kStops[i][0] + (kStops[i + 1][0] - kStops[i][0]) * f,
                  kStops[i][1] + (kStops[i + 1][1] - kStops[i][1]) * f,
                  kStops[i][2] + (kStops[i + 1][2] - kStops[i][2]) * f, 1.0f);
}

ImU32 text_on_ramp(const ImVec4& bg) {
    const float luminance = 0.299f * bg.x + 0.587f * bg.y + 0.114f * bg.z;
    return luminance > 0.5f ? IM_COL32(20, 20, 20, 255) : IM_COL32(250, 250, 250, 255);
}

}  // namespace attnlab::gui
