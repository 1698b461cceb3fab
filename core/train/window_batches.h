// The batches of a token stream's windows (train/token_windows.h), as training's Batch.
#pragma once

#include "train/sequence_batches.h"
#include "train/token_windows.h"

namespace attnlab {

class WindowBatches final : public SequenceBatches {
public:
    explicit WindowBatches(TokenWindows windows) : windows_(std::move(windows)) {}
    Batch batch(int64_t k) override;

private:
    TokenWindows windows_;
};

}  // namespace attnlab
