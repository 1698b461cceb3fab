// The largest |entry| of each row of each head of the Q and K that a QKᵀ reads, (H, N) beside each (H, N, D), for
// the stepper's overflow bound (ops/attention.h: scores_cannot_overflow). A row re-run carries the kept rows' over
// and scans only the rows it computed: a token appended to a long sequence reads one new row of each head, not the
// whole of Q and K in every layer (3.4 ms of a 35 ms token at SmolLM2-135M's shape over 1,024 tokens).
#pragma once

#include "tensor.h"

#include <cstdint>
#include <vector>

namespace attnlab {

class RowMagnitudes {
public:
    void reset(size_t steps);  // forgets every step's; room for `steps` steps
    // Step j's, for its output `value` (H, N, D) at `version`: made whole when those held are for another version.
    const Tensor& of(size_t j, const Tensor& value, uint64_t version);
    // Step j's output went from version `was` to `now` by a row re-run that kept its rows [0, from) and computed
    // the rest (merge_rows along axis 1); `value` is the new output. Those held for `was` follow it; others stay
    // stale, to be made whole if asked for.
    void carry(size_t j, uint64_t was, uint64_t now, const Tensor& value, int64_t from);

private:
    struct Held {
        uint64_t version = 0;  // 0: none
        Tensor largest;        // (H, N)
    };
    std::vector<Held> held_;  // by step
};

}  // namespace attnlab
