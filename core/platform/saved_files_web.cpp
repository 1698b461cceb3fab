#include "platform/saved_files.h"

#include <emscripten.h>

namespace attnlab::platform {

// index.html's attnlabPage.fileSaved: the settings folder is persisted, any other file downloaded. Under node (the
// tests) there is no page, and the file just stays in the file system.
EM_JS(void, page_file_saved, (const char* path), {
    if (typeof attnlabPage != "undefined") attnlabPage.fileSaved(UTF8ToString(path));
});

void file_saved(const std::string& path) { page_file_saved(path.c_str()); }

}  // namespace attnlab::platform
