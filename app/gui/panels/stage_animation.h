// "Play stages": the clock of the attention view's stage animation (QKᵀ → ÷√D → masked → softmax → ×V) and
// the values shown between two stages. No ImGui: the panel passes the time in and draws what comes out.
#pragma once

#include <cstddef>

namespace attnlab::gui {

struct StageTiming {
    double hold_s = 1.2;   // each stage stays on screen this long, for its caption to be read
    double morph_s = 0.6;  // then its values turn into the next stage's over this long
};

// What to show at one moment: from's values blended towards to's by `blend` (0: from, 1: to).
struct StageFrame {
    int from = 0, to = 0;
    float blend = 0.0f;
    bool playing = false;  // false once the last stage has been held, or after stop()
    int nearest() const { return blend < 0.5f ? from : to; }  // the stage the frame looks most like
};

// Holds stage 0, morphs into 1, holds 1, …, holds the last stage, then stops there.
class StageAnimation {
public:
    explicit StageAnimation(StageTiming timing = {}) : timing_(timing) {}

    void play(int n_stages, double now);  // from stage 0; n_stages < 2 plays nothing
    void stop(double now);                // freezes on the frame shown at `now`
    StageFrame frame(double now) const;
    bool playing(double now) const { return frame(now).playing; }
    double duration() const;  // seconds from play() to the end of the last hold

private:
    StageTiming timing_;
    int n_stages_ = 0;
    double start_ = 0.0;
    bool stopped_ = true;
    double stopped_at_ = 0.0;  // the moment the frame froze, relative to start_
};

// The values between two stages, element by element: a·(1 − t) + b·t where both ends are finite; where either
// is ±∞ (a masked score), the nearer end as it is, so −∞ appears or disappears halfway. out may alias a or b.
void blend_stage_values(const float* a, const float* b, size_t n, float t, float* out);

}  // namespace attnlab::gui
