// The Model panel's norm and activation switches: the values the core accepts for the open model (validate_config),
// as position_choices.h does for the positions, so T5 and Gemma are offered only what they run.
#pragma once

#include "config.h"

#include <vector>

namespace attnlab::gui {

// The norm placements (ModelConfig::norm_first) `config` may be switched to, its own among them: post-norm (false)
// then pre-norm (true). Gemma's and BLOOM's pre-norm alone; the paper's, T5's and the Llama template's both.
std::vector<bool> norm_placement_choices(const ModelConfig& config);

// The activations (of the FFN, or of a gated FFN's gate) `config` may be switched to, its own among them, in the
// order ReLU, GELU, GELU-tanh, SiLU.
std::vector<Activation> activation_choices(const ModelConfig& config);

}  // namespace attnlab::gui
