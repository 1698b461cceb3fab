// The two GLFW 3.3 calls the app makes that Emscripten's GLFW (3.2's API, in the web page) lacks.
#pragma once

struct GLFWwindow;

namespace attnlab::gui {

// The window's content scale (2 on a 4K screen set to 200 %); 1 in the page, whose canvas is sized in CSS pixels.
float window_content_scale(GLFWwindow* window);

// The platform's scancode of a GLFW key, as a key callback receives it (the page's GLFW has none: 0).
int key_scancode(int key);

}  // namespace attnlab::gui
