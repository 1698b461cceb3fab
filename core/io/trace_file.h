// A trace as a .safetensors file: every step's output under its path, with the step list
// (path, title, formula, inputs, params), the config and the input ids in __metadata__.
#pragma once

#include "io/safetensors.h"
#include "stepper.h"

namespace attnlab::io {

// Only the steps already run (below the cursor) are included.
SafetensorsFile trace_to_safetensors(const Stepper& stepper);
Status write_trace(const std::string& path, const Stepper& stepper);  // atomic

}  // namespace attnlab::io
