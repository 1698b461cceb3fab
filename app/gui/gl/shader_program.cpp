// Compiles and links a vertex + fragment shader pair read from disk.
#include "gl/shader_program.h"

#include "gl/gl_platform.h"
#include "io/file_bytes.h"

namespace attnlab::gui {

namespace {

Result<GLuint> compile(GLenum kind, const std::string& path) {
    auto bytes = io::read_file_bytes(path);
    if (!bytes) return bytes.error();
    const std::string source = shader_source_for_this_gl(std::string(bytes->begin(), bytes->end()));
    const char* text = source.c_str();
    GLuint shader = glCreateShader(kind);
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512] = {};
        glGetShaderInfoLog(shader, sizeof log - 1, nullptr, log);
        glDeleteShader(shader);
        std::string first_line(log);
        first_line = first_line.substr(0, first_line.find('\n'));
        return Error{path + ": " + first_line};
    }
    return shader;
}

}  // namespace

Result<GLuint> build_shader_program(const std::string& vertex_path, const std::string& fragment_path) {
    auto vs = compile(GL_VERTEX_SHADER, vertex_path);
    if (!vs) return vs.error();
    auto fs = compile(GL_FRAGMENT_SHADER, fragment_path);
    if (!fs) {
        glDeleteShader(*vs);
        return fs.error();
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, *vs);
    glAttachShader(program, *fs);
    glLinkProgram(program);
    glDeleteShader(*vs);
    glDeleteShader(*fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        glDeleteProgram(program);
        return Error{fragment_path + ": the shader program does not link"};
    }
    return program;
}

}  // namespace attnlab::gui
