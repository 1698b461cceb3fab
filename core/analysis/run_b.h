// Run B of a comparison (trace_compare.h): another model or checkpoint, or run A's own model with
// heads switched off, set up on run A's input by one rule that the CLI and the app share.
#pragma once

#include "forward/step.h"
#include "result.h"
#include "stepper.h"

#include <vector>

namespace attnlab {

// One head of one attention.
struct AttentionHead {
    AttentionSite site;
    int head = 0;
    auto operator<=>(const AttentionHead&) const = default;
};

struct RunB {
    Stepper stepper;  // not yet run
    // A's edits that B has no place for (another architecture, fewer layers or heads), left out:
    int dropped_mask_cells = 0;  // mask cells of a use of attention B does not have
    int dropped_heads = 0;       // switched-off heads of an attention or head index B does not have
    int dropped() const { return dropped_mask_cells + dropped_heads; }
};

// Run B of model (config, weights) on A's input `a`:
//   1. B reads A's tokens (src_ids, tgt_ids) and, when B has token types, A's token types;
//   2. B keeps A's mask edits for every use of attention B has a mask for, and A's switched-off
//      heads for every attention and head B has; the rest are counted in RunB::dropped_*;
//   3. B switches off `extra` heads too.
// Errors (one line): B cannot read A's tokens (vocabulary, max_len, a missing sequence), or an
// extra head names an attention or head B does not have. `first_version` as in Stepper::create.
Result<RunB> make_run_b(const ForwardInputs& a, const ModelConfig& config, const Weights& weights,
                        const std::vector<AttentionHead>& extra, uint64_t first_version = 1);

}  // namespace attnlab
