// Threads, where the platform has them. The desktop has std::thread; the web page is one WebAssembly thread
// (no SharedArrayBuffer is needed, so any static host serves it), where everything runs on the page's thread.
#pragma once

namespace attnlab::platform {

// Whether std::thread can start a thread here: false in the web page, where work that would go to a thread runs
// on the calling thread (parallel_for inline, training between frames).
bool has_threads();

// The hardware threads to use by default: std::thread::hardware_concurrency(), at least 1; 1 without threads.
int hardware_threads();

}  // namespace attnlab::platform
