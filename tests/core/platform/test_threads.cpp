// Where the platform has no threads (the web page), every split of the forward pass runs on the calling thread,
// whatever count was asked for; where it has them, the count asked for is the count used.
#include "parallel.h"
#include "platform/threads.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

using namespace attnlab;

TEST_CASE("the thread count is what was asked where threads exist, else 1 and every chunk on the caller",
          "[parallel][platform]") {
    const int before = thread_count();
    set_thread_count(4);
    std::atomic<int> chunks{0}, chunks_on_caller{0};
    const std::thread::id caller = std::this_thread::get_id();
    parallel_for(0, 64, 1, [&](int64_t, int64_t) {
        ++chunks;
        if (std::this_thread::get_id() == caller) ++chunks_on_caller;
    });
    if (platform::has_threads()) {
        CHECK(thread_count() == 4);
        CHECK(chunks.load() == 4);
        CHECK(chunks_on_caller.load() >= 1);  // its own, and any a worker had not started
    } else {
        CHECK(thread_count() == 1);
        CHECK(platform::hardware_threads() == 1);
        CHECK(chunks.load() == 1);  // the whole range, on the caller
        CHECK(chunks_on_caller.load() == 1);
    }
    set_thread_count(before);
}
