// ProgressScreen: keeps the window alive while the stepper computes on the window's thread. A whole
// forward pass of GPT-2 small over 1024 tokens takes seconds (an edit of an early weight, End, a
// switch); between its steps the stepper reports to this listener (core/progress.h), which handles the
// window's events and redraws the last frame, dimmed, under a card: which step runs, how far the work
// has come, and for how long. Work that ends within kShowAfterSeconds draws nothing.
// The dimmed frame is rendered once, into an offscreen picture of the window's size; each card copies that
// picture into the window and draws only the card over it. (Rendering the whole frame for every card cost 17 to
// 50 ms at 1920x1080 under llvmpipe, ten a second, while the work waited: a middle-token edit of GPT-2 small over 990
// tokens re-ran 1.1 to 1.35 times as long in the app as on a bare stepper in the same minutes, issue 38 D6.)
#pragma once

#include "gl/offscreen_target.h"
#include "gl/ui_renderer.h"
#include "progress.h"

#include <imgui.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
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
    static constexpr double kRedrawSeconds = 0.25;    // at most four redraws a second: the work gets the time,
    static constexpr double kMostDrawing = 0.1;       // and the cards at most a tenth of it (a slow window's fewer)

    // `is_opaque` as the frame's renderer is given it (the heatmaps' textures).
    ProgressScreen(GLFWwindow* window, UiRenderer& renderer, std::function<bool(ImTextureID)> is_opaque);

    // Before each frame: the work the frame's commands do is timed from now.
    void begin_frame(bool korean);
    // After each frame is rendered: the picture shown under the card while the next frame's work runs.
    void keep_frame(const ImDrawData& data);

    void on_progress(const WorkProgress& progress) override;
    int cards_drawn() const { return cards_drawn_; }             // since it was made
    int frames_dimmed() const { return frames_dimmed_; }         // how often the last frame was rendered under them
    double seconds_drawing() const { return seconds_drawing_; }  // drawing those cards took, in all

private:
    void draw(const WorkProgress& progress, double seconds);
    // Renders the last frame, without what no longer exists, and dimmed, into the bound framebuffer.
    void render_dimmed_frame(int fb_w, int fb_h);
    // Renders `lists` over the bound framebuffer of fb_w x fb_h, in the last frame's coordinates.
    void render_lists(std::vector<ImDrawList*>& lists, int fb_w, int fb_h);
    void begin_list(ImDrawList& list) const;  // clipped to the display, on the font texture
    void add_card(ImDrawList& list, const WorkProgress& progress, double seconds) const;
    ImVec2 display_size() const { return kept_count_ > 0 ? display_size_ : ImGui::GetIO().DisplaySize; }
    ImVec2 display_origin() const { return kept_count_ > 0 ? display_pos_ : ImVec2(0.0f, 0.0f); }

    GLFWwindow* window_;
    UiRenderer& renderer_;
    std::function<bool(ImTextureID)> is_opaque_;
    bool korean_ = false;
    bool drawing_ = false;  // events handled while drawing must not start another draw
    std::chrono::steady_clock::time_point work_start_ = std::chrono::steady_clock::now(), last_draw_;
    std::vector<std::unique_ptr<ImDrawList>> kept_;  // the last frame's lists, copied (their buffers are reused)
    int kept_count_ = 0;
    std::optional<OffscreenTarget> dimmed_;  // the last frame dimmed, when dimmed_current_
    bool dimmed_current_ = false;            // false from keep_frame until the next card renders it
    int cards_drawn_ = 0, frames_dimmed_ = 0;
    double seconds_drawing_ = 0.0;
    double work_drawing_ = 0.0;  // seconds drawing cards since begin_frame
    ImVec2 display_pos_, display_size_, framebuffer_scale_{1.0f, 1.0f};
};

}  // namespace attnlab::gui
