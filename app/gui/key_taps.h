// Key taps shorter than a frame, for Dear ImGui 1.86. Its GLFW backend keeps each key as a held-down flag
// (io.KeysDown) that a frame reads once, so a key pressed and released between two frames never reads as
// pressed, and of several keys tapped between two frames a text field acts on one: a quick Ctrl+A, or Home and
// arrow keys tapped while a frame of a long input takes a tenth of a second. KeyTaps sits in front of the
// backend's key and character callbacks and hands the taps on one frame at a time, as Dear ImGui 1.87's input
// queue does: a release once a frame has seen its key down, the next tap after that (a frame later for the same
// key, which a frame must see up), and characters typed behind taps after them, in the order they came.
// Modifiers (Shift, Ctrl, Alt, Super) go on at once, their releases kept the same way, except while a frame is
// open (its long work polls the window for the progress card) or taps wait: then they wait for the frame's end, in
// their place, since Dear ImGui aborts when Shift or Ctrl changes within a frame. Letters typed alone go on as they
// come (their characters are what a field reads).
#pragma once

#include <deque>
#include <map>
#include <vector>

struct GLFWwindow;

namespace attnlab::gui {

class KeyTaps {
public:
    struct Event {
        enum class Kind { press, release, character };
        Kind kind;
        unsigned value;  // the GLFW key, or the character's code point
        bool operator==(const Event&) const = default;
    };

    // An event from the window: true when it goes on to Dear ImGui now, false when it is kept for later frames.
    bool pass_key(int key, bool press);
    bool pass_character(unsigned code_point);
    // Once a frame has read the keys (after ImGui::Render: Dear ImGui asserts that Ctrl does not change within a
    // frame): the kept events that go on now.
    std::vector<Event> after_frame();
    // Whether kept events wait for frames still (the window should not sit idle meanwhile).
    bool pending() const;

private:
    struct KeyState {
        bool down = false;          // as the window last said
        bool unseen_down = false;   // pressed since the last frame began
        bool release_kept = false;  // its release, kept until a frame has seen it down
        bool unseen_up = false;     // released since the last frame began, after a frame saw it down
        int open = 0;               // queued taps of this key whose own release has not come yet
    };
    // Whether a key's press is a tap a frame must see (an editing or navigation key, or any key with Ctrl, Alt or
    // Super down); a letter typed alone counts by its character, which Dear ImGui queues itself.
    bool tapped(int key) const;
    bool tap_in_flight() const;  // a tap is down for the coming frame, or events wait
    std::map<int, KeyState> keys_;
    std::deque<Event> queued_;  // presses (taps) and characters not yet handed on, first first
};

// Puts a KeyTaps in front of the key and character callbacks Dear ImGui's GLFW backend installed on `window`
// (call after ImGui_ImplGlfw_InitForOpenGL), and hands its kept events on (call after each ImGui::Render).
void install_key_taps(GLFWwindow* window);
void release_held_keys(GLFWwindow* window);

}  // namespace attnlab::gui
