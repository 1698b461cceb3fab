// The Model panel's summary lines that carry numbers, headless so a test reads them in both languages:
// the KV cache a generating decoder keeps, a sliding window's reach (Mistral), and the weights' precision.
#pragma once

#include "config.h"
#include "weights_precision.h"

#include <string>

namespace attnlab::gui {

// "KV cache: 1.0 KiB per token, 7.0 KiB for this prompt" for a prompt of `tokens` tokens.
std::string kv_cache_text(const ModelConfig& config, size_t tokens, bool korean);

// "Sliding window: W = 3, each token sees itself and the 2 before it"; empty without a window.
std::string sliding_window_text(const ModelConfig& config, bool korean);

// "Weights: BF16 (942.3 MiB, 169 tensors), F32 (1.2 MiB, 121 tensors); 3 edited, now F32", or "Weights: F32 (…)"
// when none is BF16. `loaded`: the weights as opened, to count the BF16 tensors an edit has widened.
std::string weights_precision_text(const Weights& weights, const Weights& loaded, bool korean);

}  // namespace attnlab::gui
