// The positional schemes a model's switch offers: those the core accepts for its family (validate_config), so
// the Model panel shows a model's own scheme (ALiBi, T5's buckets, RoPE, …) and only the others it can run.
#pragma once

#include "config.h"

#include <vector>

namespace attnlab::gui {

// The schemes `config` may be switched to, its own among them, in a fixed order (sinusoidal, learned, rotary,
// alibi, relative_buckets, none): the paper's model all but the bias and rotary schemes, the Llama template
// RoPE or none, T5 its buckets or none, BLOOM ALiBi or none, Gemma RoPE alone.
std::vector<Positional> position_choices(const ModelConfig& config);

}  // namespace attnlab::gui
