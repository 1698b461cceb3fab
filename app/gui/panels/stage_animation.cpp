// The stage animation's timeline: n holds with n − 1 morphs between them, and the blend of two stages' values.
#include "panels/stage_animation.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

void StageAnimation::play(int n_stages, double now) {
    n_stages_ = n_stages;
    start_ = now;
    stopped_ = n_stages < 2;
    stopped_at_ = 0.0;
}

void StageAnimation::stop(double now) {
    if (stopped_) return;
    stopped_at_ = std::clamp(now - start_, 0.0, duration());
    stopped_ = true;
}

double StageAnimation::duration() const {
    if (n_stages_ < 1) return 0.0;
    return n_stages_ * timing_.hold_s + (n_stages_ - 1) * timing_.morph_s;
}

StageFrame StageAnimation::frame(double now) const {
    StageFrame f;
    if (n_stages_ < 1) return f;
    const double t = stopped_ ? stopped_at_ : now - start_;
    f.playing = !stopped_ && t < duration();
    const double period = timing_.hold_s + timing_.morph_s;  // one stage's hold and the morph out of it
    const double clamped = std::clamp(t, 0.0, duration());
    const int stage = std::min(static_cast<int>(clamped / period), n_stages_ - 1);
    const double into_morph = clamped - stage * period - timing_.hold_s;
    f.from = f.to = stage;
    if (stage + 1 < n_stages_ && into_morph > 0.0) {
        f.to = stage + 1;
        f.blend = timing_.morph_s > 0.0 ? static_cast<float>(std::min(into_morph / timing_.morph_s, 1.0)) : 1.0f;
    }
    return f;
}

void blend_stage_values(const float* a, const float* b, size_t n, float t, float* out) {
    for (size_t i = 0; i < n; ++i) {
        if (std::isfinite(a[i]) && std::isfinite(b[i]))
            out[i] = a[i] * (1.0f - t) + b[i] * t;  // exactly a at t = 0 and b at t = 1
        else
            out[i] = t < 0.5f ? a[i] : b[i];
    }
}

}  // namespace attnlab::gui
