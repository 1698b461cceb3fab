// The page is built without pthreads: one thread, whatever navigator.hardwareConcurrency says.
#include "platform/threads.h"

namespace attnlab::platform {

bool has_threads() { return false; }

int hardware_threads() { return 1; }

}  // namespace attnlab::platform
