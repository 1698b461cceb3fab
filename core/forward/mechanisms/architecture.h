// A model's architecture in one line, each mechanism describing itself.
#pragma once

#include "config.h"

#include <string>

namespace attnlab {

// e.g. "decoder_only, pre-norm RMSNorm, gated FFN (silu), rotary positions (θ 500000, llama3 ×8), 4 query heads
// sharing 1 K/V head, sliding window 3".
std::string describe_architecture(const ModelConfig& config);

}  // namespace attnlab
