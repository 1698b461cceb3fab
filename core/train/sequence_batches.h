// Batches a training run draws, one per step, for the kind of model they train (trains()):
//   decoder_only:    next-token sequences, (B, T) inputs and their targets, the next token of each position: windows
//                    of a token stream (train/window_batches.h) or the induction task's sequences
//                    (train/induction_task.h); S = 0, no padding (pad_id −1: every target counts, no key is masked);
//   encoder_only:    masked tokens (train/masked_batches.h): (B, S) sources, T = 0, tgt_out (B, S) the original id
//                    at the chosen positions and pad_id −1 elsewhere;
//   encoder_decoder: (source, target) pairs padded as make_batch pads them (train/pair_batches.h).
#pragma once

#include "config.h"
#include "train/batch.h"

#include <cstdint>

namespace attnlab {

class SequenceBatches {
public:
    virtual ~SequenceBatches() = default;
    // Batch k ≥ 0 (k = the steps taken before it), laid out as above.
    virtual Batch batch(int64_t k) = 0;
    // The architecture these batches train.
    virtual Arch trains() const { return Arch::decoder_only; }
};

// What batches for `arch` are, for messages: "next-token sequences", "masked tokens", "(source, target) pairs".
const char* batches_name(Arch arch);

}  // namespace attnlab
