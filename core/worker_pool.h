// Threads kept between parallel_for calls (parallel.h): starting and joining a std::thread costs 20-50 µs here,
// and a traced pass makes about a thousand splits, most of them a millisecond or less.
#pragma once

#include <cstdint>
#include <functional>

namespace attnlab {

// Runs chunk(c) for c in [0, chunks), each once: chunk 0 on the calling thread, chunk w + 1 on kept worker thread w
// (started on first use), unless the caller, done with its own, claims that chunk before its worker has woken.
// Returns once every chunk has returned; the first exception a chunk threw is rethrown then. False, with nothing
// run, when the pool is taken: by another thread's call, or by this thread's own (a chunk that splits its work
// again).
bool run_on_worker_pool(int64_t chunks, const std::function<void(int64_t)>& chunk);

}  // namespace attnlab
