#include "platform/memory.h"

#include <emscripten/heap.h>

namespace attnlab::platform {

void keep_freed_memory_for_reuse() {}  // dlmalloc in a linear memory that never shrinks: freed blocks stay anyway

void return_free_heap_pages() {}  // and a WebAssembly memory cannot give pages back

int64_t resident_kib() { return static_cast<int64_t>(emscripten_get_heap_size() / 1024); }

}  // namespace attnlab::platform
