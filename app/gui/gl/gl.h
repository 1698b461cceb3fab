// OpenGL 3.3 core entry points. Mesa's libGL exports them all on Linux, so no loader is needed.
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
