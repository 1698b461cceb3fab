#include "memory_reuse.h"

#include <cstdlib>  // defines __GLIBC__ on glibc: without a libc header first, the #if below is false

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attnlab {

void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_MAX, 0);         // every block comes from the heap, however large (the logits: 50 MB)
    mallopt(M_TRIM_THRESHOLD, -1);  // and freed space stays for reuse: a Qwen2.5-0.5B trace frees 700 MB at once
#endif
}

}  // namespace attnlab
