// How the process's allocator treats large blocks, and how much memory it holds.
//
// A traced pass of GPT-2 small on 64 tokens allocates about 75 MB of outputs; by default glibc maps each block over
// 128 KB fresh from the kernel and unmaps it on free, so every re-run pays a page fault per 4 KB page (11 ms for the
// 12.8 MB of logits on a 2-core VM, a fifth of the whole pass). keep_freed_memory_for_reuse keeps freed blocks in
// the heap, however large (no threshold reaches the 50 MB logits of a 49K vocabulary), so the next run reuses warm
// pages; nor is the heap trimmed on its own, since the trace a run frees may be any size. attnlab and attnlab-cli
// call it once at start, not the core itself; the app hands free pages back when a model is replaced.
//
// In the web page the allocator is Emscripten's dlmalloc in one linear memory that only grows: there is nothing
// to steer or hand back, and the resident size is the memory's size.
#pragma once

#include <cstdint>

namespace attnlab::platform {

void keep_freed_memory_for_reuse();

// Hands the heap's free pages back to the system. A replaced model, the panel caches and the textures that showed
// it are freed into the heap, and glibc returns only the heap's top on its own: without a trim the resident size
// keeps the largest model ever opened.
void return_free_heap_pages();

// This process's resident memory in KiB (/proc/self/statm on Linux; the WebAssembly memory in the page), or 0
// where unknown.
int64_t resident_kib();

}  // namespace attnlab::platform
