#include "platform/saved_files.h"

namespace attnlab::platform {

void file_saved(const std::string&) {}  // it is on disk, where the user asked

}  // namespace attnlab::platform
