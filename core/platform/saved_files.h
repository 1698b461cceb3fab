// What happens once a file is saved (io::write_file_atomic calls it after the rename). On the desktop the file is
// where the user asked. In the web page the files live in the page's memory: the settings are copied to the
// browser's storage (IndexedDB), and anything else the user saved (a PNG, slides, a trace, a trained model)
// downloads to the user's Downloads folder under its name.
#pragma once

#include <string>

namespace attnlab::platform {

void file_saved(const std::string& path);

}  // namespace attnlab::platform
