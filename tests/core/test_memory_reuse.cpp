// keep_freed_memory_for_reuse: a freed trace-sized block stays in the process's heap, so the next run writes
// into pages it already has instead of faulting fresh ones in. (It was once compiled to nothing: its glibc test
// came before any libc header, and every re-run of the pass page-faulted its whole trace again.)
#include "platform/memory.h"

#include <catch2/catch.hpp>

#include <cstdlib>

// Under AddressSanitizer malloc is the sanitizer's, which mallopt does not steer: the case is glibc's alone.
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#include <malloc.h>

TEST_CASE("a freed 64 MB block comes from the heap and stays there", "[memory]") {
    attnlab::platform::keep_freed_memory_for_reuse();
    // glibc's default would map it on its own and unmap it on free, and so would any mmap threshold: their largest is
    // 32 MB, and the logits of a 49K vocabulary over 256 tokens are 50 MB.
    constexpr size_t kBlock = size_t{64} << 20;
    const struct mallinfo2 before = mallinfo2();
    void* block = std::malloc(kBlock);
    REQUIRE(block != nullptr);
    const struct mallinfo2 held = mallinfo2();
    CHECK(held.hblkhd == before.hblkhd);  // not a block mapped on its own
    std::free(block);
    const struct mallinfo2 after = mallinfo2();
    CHECK(after.arena >= held.arena);                 // the heap was not trimmed
    CHECK(after.fordblks >= held.fordblks + kBlock);  // and holds the block as free space
}

TEST_CASE("a freed 768 MB block stays in the heap too: a large model's trace is freed at once", "[memory]") {
    attnlab::platform::keep_freed_memory_for_reuse();
    constexpr size_t kBlock = size_t{768} << 20;  // past glibc's default trim threshold and the old 512 MB one
    void* block = std::malloc(kBlock);            // never written, so never resident
    REQUIRE(block != nullptr);
    const struct mallinfo2 held = mallinfo2();
    std::free(block);
    const struct mallinfo2 after = mallinfo2();
    CHECK(after.arena >= held.arena);
    CHECK(after.fordblks >= held.fordblks + kBlock);
}
#endif
