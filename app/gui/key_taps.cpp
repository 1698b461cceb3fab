// KeyTaps: each tap of a key reaches a frame down and a frame up; and its bridge to GLFW's key callback.
#include "key_taps.h"

#include <GLFW/glfw3.h>

#include <algorithm>

namespace attnlab::gui {

namespace {

// GLFW calls a plain function per window: the app has one window, so one KeyTaps and the backend's callback
// behind it live here (as the backend keeps its own callbacks).
KeyTaps g_taps;
GLFWkeyfun g_backend = nullptr;

void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    if (action != GLFW_REPEAT && !g_taps.pass(key, action == GLFW_PRESS)) return;
    if (g_backend) g_backend(window, key, scancode, action, mods);
}

bool is_modifier(int key) { return key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER; }

}  // namespace

bool KeyTaps::pass(int key, bool press) {
    if (key < 0) return true;  // GLFW_KEY_UNKNOWN: Dear ImGui has no flag for it
    KeyState& k = keys_[key];
    if (press) {
        if (!is_modifier(key) && tap_in_flight()) {  // after the taps before it, a frame each
            queued_.push_back(key);
            ++k.open;
            return false;
        }
        k.unseen_down = true;
        return true;
    }
    if (k.open > 0) {  // a queued tap's release: the tap goes on whole, later
        --k.open;
        return false;
    }
    if (!k.unseen_down) return true;
    k.release_kept = true;
    return false;
}

std::vector<KeyTaps::Event> KeyTaps::after_frame() {
    std::vector<Event> out;
    for (auto& [key, k] : keys_) {  // the frame saw every key pressed before it down
        if (k.release_kept) out.push_back({key, false});
        k.release_kept = k.unseen_down = false;
    }
    const bool released_now = !queued_.empty() && std::find(out.begin(), out.end(), Event{queued_.front(), false}) !=
                                                      out.end();  // a frame must see that key up first
    if (!queued_.empty() && !released_now) {
        const int key = queued_.front();
        queued_.pop_front();
        out.push_back({key, true});
        keys_[key].unseen_down = keys_[key].release_kept = true;  // up again after the next frame
    }
    return out;
}

bool KeyTaps::pending() const {
    if (!queued_.empty()) return true;
    for (const auto& [key, k] : keys_)
        if (k.release_kept) return true;
    return false;
}

bool KeyTaps::tap_in_flight() const {
    if (!queued_.empty()) return true;
    for (const auto& [key, k] : keys_)
        if (!is_modifier(key) && (k.unseen_down || k.release_kept)) return true;
    return false;
}

void install_key_taps(GLFWwindow* window) { g_backend = glfwSetKeyCallback(window, on_key); }

void release_held_keys(GLFWwindow* window) {
    for (const KeyTaps::Event& e : g_taps.after_frame())
        if (g_backend) g_backend(window, e.key, glfwGetKeyScancode(e.key), e.press ? GLFW_PRESS : GLFW_RELEASE, 0);
    if (g_taps.pending()) glfwPostEmptyEvent();  // the next frame comes at once, not after the idle wait
}

}  // namespace attnlab::gui
