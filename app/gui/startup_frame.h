// The window's first frame, drawn before the first model opens: the theme's background and one line saying what
// opens, in the type the window will have. With it drawn, the first pass's progress (seconds for GPT-2 small over a
// long prompt) shows as ProgressScreen's card over it, never as no window or a black one.
#pragma once

#include "gl/font_texture.h"
#include "gl/ui_renderer.h"
#include "progress_screen.h"
#include "view_state.h"

#include <string>

struct GLFWwindow;

namespace attnlab::gui {

// Needs ImGui's context with its GLFW backend on `window`, whose GL context is current. `content_scale` as
// App::content_scale (0: the monitor's); `opening` names the model ("" for the bundled one).
void show_startup_frame(GLFWwindow* window, FontTexture& font_texture, UiRenderer& ui_renderer,
                        ProgressScreen& progress, const ViewState& view, float content_scale,
                        const std::string& opening);

}  // namespace attnlab::gui
