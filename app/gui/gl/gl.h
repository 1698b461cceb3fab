// OpenGL 3.3 core entry points on the desktop (Mesa's libGL exports them all on Linux, so no loader is needed),
// OpenGL ES 3.0 in the web page (WebGL2, through Emscripten). What differs between the two is in gl_platform.h.
#pragma once

#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#endif
