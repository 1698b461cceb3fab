// Threads kept between parallel_for calls (parallel.h): starting and joining a std::thread costs 20-50 µs here,
// and a traced pass makes about a thousand splits, most of them a millisecond or less.
#pragma once

#include <cstdint>
#include <functional>

namespace attnlab {

// Runs chunk(c) for c in [0, chunks): chunk 0 on the calling thread, the others on kept worker threads (started on
// first use, one per chunk beyond the first), and returns once every chunk has returned. False, with nothing run,
// when the pool is taken: by another thread's call, or by this thread's own (a chunk that splits its work again).
bool run_on_worker_pool(int64_t chunks, const std::function<void(int64_t)>& chunk);

}  // namespace attnlab
