#include "glfw_extras.h"

namespace attnlab::gui {

float window_content_scale(GLFWwindow*) { return 1.0f; }

int key_scancode(int) { return 0; }

}  // namespace attnlab::gui
