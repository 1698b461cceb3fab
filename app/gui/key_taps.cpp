// KeyTaps: each tap of a key reaches a frame down and a frame up, characters keep their place among the taps;
// and its bridge to GLFW's key and character callbacks.
#include "key_taps.h"

#include "glfw_extras.h"

#include <GLFW/glfw3.h>
#include <imgui_internal.h>

#include <algorithm>

namespace attnlab::gui {

namespace {

using Kind = KeyTaps::Event::Kind;

// GLFW calls a plain function per window: the app has one window, so one KeyTaps and the backend's callbacks
// behind it live here (as the backend keeps its own callbacks).
KeyTaps g_taps;
GLFWkeyfun g_backend_key = nullptr;
GLFWcharfun g_backend_char = nullptr;

void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    if (action != GLFW_REPEAT && !g_taps.pass_key(key, action == GLFW_PRESS)) return;
    if (g_backend_key) g_backend_key(window, key, scancode, action, mods);
}

void on_char(GLFWwindow* window, unsigned code_point) {
    if (g_taps.pass_character(code_point) && g_backend_char) g_backend_char(window, code_point);
}

bool is_modifier(int key) { return key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER; }

// Whether a Dear ImGui frame is open (between NewFrame and Render): the window's events come then only while a
// frame's long work keeps the window alive (the progress card), and a modifier that reached Dear ImGui then would
// change io.KeyShift within the frame, which its end-of-frame check aborts on.
bool frame_open() {
    const ImGuiContext* context = ImGui::GetCurrentContext();
    return context && context->WithinFrameScope;
}

// GLFW's printable keys end at GLFW_KEY_WORLD_2; the function, editing and navigation keys start at 256.
constexpr int GLFW_KEY_LAST_PRINTABLE = GLFW_KEY_WORLD_2;

}  // namespace

bool KeyTaps::pass_key(int key, bool press) {
    if (key < 0) return true;  // GLFW_KEY_UNKNOWN: Dear ImGui has no flag for it
    KeyState& k = keys_[key];
    if (is_modifier(key) && (!queued_.empty() || frame_open())) {  // Shift, Ctrl, … after the frame, in order
        k.down = press;
        queued_.push_back({press ? Kind::press : Kind::release, static_cast<unsigned>(key)});
        return false;
    }
    if (press) {
        k.down = true;
        if (!is_modifier(key) && !tapped(key)) return true;  // a letter typed: its character is what counts
        if (!is_modifier(key) && (tap_in_flight() || k.unseen_up)) {  // after the taps before it, a frame each
            queued_.push_back({Kind::press, static_cast<unsigned>(key)});
            ++k.open;
            return false;
        }
        k.unseen_down = true;
        return true;
    }
    k.down = false;
    if (k.open > 0) {  // a queued tap's release: the tap goes on whole, later
        --k.open;
        return false;
    }
    if (!k.unseen_down) {  // a frame saw it down: up now, and the next frame must see it up
        k.unseen_up = !is_modifier(key);
        return true;
    }
    k.release_kept = true;
    return false;
}

bool KeyTaps::pass_character(unsigned code_point) {
    if (!tap_in_flight()) return true;
    queued_.push_back({Kind::character, code_point});  // after the tap before it, as it was typed
    return false;
}

bool KeyTaps::tapped(int key) const {
    if (key > GLFW_KEY_LAST_PRINTABLE) return true;  // Enter, Backspace, arrows, Home, F5, …
    for (int modifier : {GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL, GLFW_KEY_LEFT_ALT, GLFW_KEY_RIGHT_ALT,
                         GLFW_KEY_LEFT_SUPER, GLFW_KEY_RIGHT_SUPER})
        if (const auto m = keys_.find(modifier); m != keys_.end() && m->second.down) return true;  // Ctrl+A, …
    return false;
}

std::vector<KeyTaps::Event> KeyTaps::after_frame() {
    std::vector<Event> out;
    std::vector<unsigned> up_now;  // keys the next frame must see up, before one goes down again
    for (auto& [key, k] : keys_) {  // the frame saw every key pressed before it down, and released before it up
        if (k.release_kept) out.push_back({Kind::release, static_cast<unsigned>(key)});
        if (k.release_kept || k.unseen_up) up_now.push_back(static_cast<unsigned>(key));
        k.release_kept = k.unseen_down = k.unseen_up = false;
    }
    // The next frame gets what waits up to the next tap, and that tap unless characters went first (a frame reads
    // characters before keys) or its key must be seen up first; modifiers go with what follows them.
    bool characters = false;
    while (!queued_.empty()) {
        const Event e = queued_.front();
        const int key = static_cast<int>(e.value);
        if (e.kind == Kind::character) {
            characters = true;
        } else if (!is_modifier(key)) {
            if (characters || std::find(up_now.begin(), up_now.end(), e.value) != up_now.end()) break;
            keys_[key].unseen_down = keys_[key].release_kept = true;  // up again after the next frame
            queued_.pop_front();
            out.push_back(e);
            break;
        }
        queued_.pop_front();
        out.push_back(e);
    }
    return out;
}

bool KeyTaps::pending() const {
    if (!queued_.empty()) return true;
    return std::any_of(keys_.begin(), keys_.end(), [](const auto& key) { return key.second.release_kept; });
}

bool KeyTaps::tap_in_flight() const {
    if (!queued_.empty()) return true;
    return std::any_of(keys_.begin(), keys_.end(), [](const auto& key) {
        return !is_modifier(key.first) && (key.second.unseen_down || key.second.release_kept);
    });
}

void install_key_taps(GLFWwindow* window) {
    g_backend_key = glfwSetKeyCallback(window, on_key);
    g_backend_char = glfwSetCharCallback(window, on_char);
}

void release_held_keys(GLFWwindow* window) {
    for (const KeyTaps::Event& e : g_taps.after_frame()) {
        const int key = static_cast<int>(e.value);
        if (e.kind == Kind::character) {
            if (g_backend_char) g_backend_char(window, e.value);
        } else if (g_backend_key) {
            g_backend_key(window, key, key_scancode(key), e.kind == Kind::press ? GLFW_PRESS : GLFW_RELEASE, 0);
        }
    }
    if (g_taps.pending()) glfwPostEmptyEvent();  // the next frame comes at once, not after the idle wait
}

}  // namespace attnlab::gui
