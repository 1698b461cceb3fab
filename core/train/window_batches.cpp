#include "train/window_batches.h"

namespace attnlab {

Batch WindowBatches::batch(int64_t k) {
    WindowBatch w = windows_.batch(k);
    Batch b;
    b.B = w.B;
    b.T = w.T;
    b.pad_id = -1;
    b.tgt_in = std::move(w.inputs);
    b.tgt_out = std::move(w.targets);
    return b;
}

}  // namespace attnlab
