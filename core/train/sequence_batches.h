// Batches of next-token sequences for a decoder-only model, (B, T) inputs and their targets, the next token of each
// position: windows of a token stream (a text or ids file, train/token_windows.h), or the induction task's
// sequences (train/induction_task.h).
#pragma once

#include "train/batch.h"

#include <cstdint>

namespace attnlab {

class SequenceBatches {
public:
    virtual ~SequenceBatches() = default;
    // Batch k ≥ 0 (k = the steps taken before it): B sequences of T inputs, tgt_out their targets, S = 0, no
    // padding (pad_id −1: every target counts, and no key is masked).
    virtual Batch batch(int64_t k) = 0;
};

}  // namespace attnlab
