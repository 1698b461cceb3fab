#include "platform/threads.h"

#include <algorithm>
#include <thread>

namespace attnlab::platform {

bool has_threads() { return true; }

int hardware_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

}  // namespace attnlab::platform
