// ProgressScreen: keeps the window alive while the stepper computes on the window's thread. A whole
// forward pass of GPT-2 small over 1024 tokens takes seconds (an edit of an early weight, End, a
// switch); between its steps the stepper reports to this listener (core/progress.h), which handles the
// window's events and redraws the last frame, dimmed, under a card: which step runs, how far the work
// has come, and for how long. Work that ends within kShowAfterSeconds draws nothing.
#pragma once

#include "gl/ui_renderer.h"
#include "progress.h"

#include <imgui.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;

namespace attnlab::gui {

// The card's first line: "Running the forward pass: step 150 of 213 (blocks.5.attn.weights), 2.1 s", or for work
// that began past step 0 "Re-running steps 143 to 213: at step 150 (…), 2.1 s"; in English or Korean.
std::string progress_text(const WorkProgress& progress, double seconds, bool korean);

class ProgressScreen : public ProgressListener {
public:
    static constexpr double kShowAfterSeconds = 0.3;  // shorter work shows nothing
    static constexpr double kRedrawSeconds = 0.1;     // at most ten redraws a second: the work gets the time

    // `is_opaque` as the frame's renderer is given it (the heatmaps' textures).
    ProgressScreen(GLFWwindow* window, UiRenderer& renderer, std::function<bool(ImTextureID)> is_opaque);

    // Before each frame: the work the frame's commands do is timed from now.
    void begin_frame(bool korean);
    // After each frame is rendered: the picture shown under the card while the next frame's work runs.
    void keep_frame(const ImDrawData& data);

    void on_progress(const WorkProgress& progress) override;
    int cards_drawn() const { return cards_drawn_; }  // since it was made

private:
    void draw(const WorkProgress& progress, double seconds);
    void add_card(ImDrawList& list, const WorkProgress& progress, double seconds) const;

    GLFWwindow* window_;
    UiRenderer& renderer_;
    std::function<bool(ImTextureID)> is_opaque_;
    bool korean_ = false;
    bool drawing_ = false;  // events handled while drawing must not start another draw
    std::chrono::steady_clock::time_point work_start_ = std::chrono::steady_clock::now(), last_draw_;
    std::vector<std::unique_ptr<ImDrawList>> kept_;  // the last frame's lists, copied (their buffers are reused)
    int kept_count_ = 0;
    int cards_drawn_ = 0;
    ImVec2 display_pos_, display_size_, framebuffer_scale_{1.0f, 1.0f};
};

}  // namespace attnlab::gui
