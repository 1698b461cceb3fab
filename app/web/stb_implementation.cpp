// The stb functions the page uses, compiled from Debian's libstb-dev headers: on the desktop they come compiled in
// Debian's libstb, which has no WebAssembly build. Dear ImGui's font atlas (truetype, rect_pack) and the PNG writer
// of slides and screenshots (image_write).
#define STB_RECT_PACK_IMPLEMENTATION
#define STB_TRUETYPE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_rect_pack.h>
#include <stb/stb_truetype.h>
#include <stb/stb_image_write.h>
