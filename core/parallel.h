// How many threads the forward pass may use, and a split of a range of independent pieces of work
// between them. Every split is by whole rows, columns or heads, so no number depends on the count:
// a pass on 1 thread and on 2 gives the same bits.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace attnlab {

// Threads the forward pass uses: every core by default (platform::hardware_threads), or what set_thread_count
// chose (attnlab --threads N, attnlab-cli --threads N); always 1 where the platform has no threads (the web page).
int thread_count();
void set_thread_count(int n);  // n ≥ 1

// While one lives, thread_count() is 1 on the thread that made it, so every split it calls runs inline: for work
// that is already one of several threads' parts (data-parallel training), where a split inside would start threads
// of its own for every product.
class SerialScope {
public:
    SerialScope();
    ~SerialScope();
    SerialScope(const SerialScope&) = delete;
    SerialScope& operator=(const SerialScope&) = delete;
};
// "--threads N"'s value as both attnlab and attnlab-cli read it: a whole number from 1 to kMaxThreads, or nullopt.
inline constexpr int kMaxThreads = 256;
std::optional<int> parse_thread_count(const std::string& text);

// Runs body(begin_i, end_i) over [begin, end) cut into at most thread_count() contiguous chunks, each a multiple
// of `grain` long (but the last), the first on the calling thread and the others on kept workers; the caller runs
// any a worker has not started when it is done with its own, so it never waits for a worker that is off the cores.
// Fewer chunks when the range is short.
void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

// Runs body(begin_i, end_i) over [begin, end) cut into pieces of whole grains (the last maybe short), each thread
// taking the next piece as it finishes its last, so a thread that runs slower (a VM's vCPU whose core is busy with
// another guest) does less. A piece is what is left over 2·thread_count(), down to one grain (guided scheduling):
// few pieces, and at the end the other thread waits for one grain's work at most. Pieces go to threads in no fixed
// way, so each must write its own outputs only.
void parallel_claim(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

// An elementwise or row-by-row pass over `rows` rows of `row_width` entries: body(first_row, end_row) on every
// thread from kSplitRowEntries entries (a split costs a few microseconds, the pass then about a hundred), on the
// calling thread below that. The rows are claimed (parallel_claim) down to pieces of kClaimRowEntries entries, so
// that neither thread waits long for the other at the end.
inline constexpr int64_t kSplitRowEntries = int64_t{1} << 17;
inline constexpr int64_t kClaimRowEntries = int64_t{1} << 14;
void parallel_rows(int64_t rows, int64_t row_width, const std::function<void(int64_t, int64_t)>& body);

}  // namespace attnlab
