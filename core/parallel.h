// How many threads the forward pass may use, and a split of a range of independent pieces of work
// between them. Every split is by whole rows, columns or heads, so no number depends on the count:
// a pass on 1 thread and on 2 gives the same bits.
#pragma once

#include <cstdint>
#include <functional>

namespace attnlab {

// Threads the forward pass uses: every core by default (std::thread::hardware_concurrency),
// or what set_thread_count chose (attnlab --threads N, attnlab-cli --threads N).
int thread_count();
void set_thread_count(int n);  // n ≥ 1

// Runs body(begin_i, end_i) over [begin, end) cut into at most thread_count() contiguous chunks, each a multiple
// of `grain` long (but the last), the first on the calling thread. Fewer chunks when the range is short.
void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

}  // namespace attnlab
