#include "platform/threads.h"

#include <algorithm>
#include <thread>

namespace attnlab::platform {

bool has_threads() { return true; }

// Read once: glibc's hardware_concurrency() opens and reads a sysfs file each time, and every split of the forward
// pass asks (thread_count); at a token's re-run, a few hundred times.
int hardware_threads() {
    static const int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    return threads;
}

}  // namespace attnlab::platform
