// How the process's allocator treats the trace's large tensors. A traced pass of GPT-2 small on
// 64 tokens allocates about 75 MB of outputs; by default glibc maps each block over 128 KB fresh
// from the kernel and unmaps it on free, so every re-run pays a page fault per 4 KB page
// (11 ms for the 12.8 MB of logits on a 2-core VM, a fifth of the whole pass). Keeping freed
// blocks in the heap, however large (no threshold reaches the 50 MB logits of a 49K vocabulary),
// lets the next run reuse warm pages; nor is the heap trimmed on its own, since the trace a run
// frees may be any size. Called once at start by attnlab and attnlab-cli, not by the core itself;
// the app still hands free pages back when a model is replaced (app/gui/heap_trim.h).
#pragma once

namespace attnlab {

void keep_freed_memory_for_reuse();

}  // namespace attnlab
