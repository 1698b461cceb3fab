// A backward pass as a .safetensors file: dL/d(each forward step's output) under the step's path, dL/d(each
// parameter) under param.<name>, and in __metadata__ the loss (its spec, definition and value), the backward
// steps in the order they ran, the config and the input ids.
#pragma once

#include "backward/backward_pass.h"
#include "io/safetensors.h"

namespace attnlab::io {

// Only the gradients that are whole at the pass's cursor are included (all of them once it is done).
SafetensorsFile gradients_to_safetensors(const Stepper& forward, const BackwardPass& backward);

}  // namespace attnlab::io
