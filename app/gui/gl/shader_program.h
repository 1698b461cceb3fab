// A GLSL program built from files in shaders/; the error names the file and the compiler's first line.
#pragma once

#include "gl/gl.h"
#include "result.h"

#include <string>

namespace attnlab::gui {

Result<GLuint> build_shader_program(const std::string& vertex_path, const std::string& fragment_path);

}  // namespace attnlab::gui
