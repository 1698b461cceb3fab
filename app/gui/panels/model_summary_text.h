// The Model panel's summary lines that carry numbers, headless so a test reads them in both languages:
// the KV cache a generating decoder keeps, and a sliding window's reach (Mistral).
#pragma once

#include "config.h"

#include <string>

namespace attnlab::gui {

// "KV cache: 1.0 KiB per token, 7.0 KiB for this prompt" for a prompt of `tokens` tokens.
std::string kv_cache_text(const ModelConfig& config, size_t tokens, bool korean);

// "Sliding window: W = 3, each token sees itself and the 2 before it"; empty without a window.
std::string sliding_window_text(const ModelConfig& config, bool korean);

}  // namespace attnlab::gui
