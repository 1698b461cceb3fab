#include "glfw_extras.h"

#include <GLFW/glfw3.h>

namespace attnlab::gui {

float window_content_scale(GLFWwindow* window) {
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(window, &x, &y);
    return x;
}

int key_scancode(int key) { return glfwGetKeyScancode(key); }

}  // namespace attnlab::gui
