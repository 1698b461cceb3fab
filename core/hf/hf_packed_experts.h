// Granite-MoE's packed experts: block_sparse_moe.input_linear.weight (E, 2F, C) (each expert's gate rows, then its up
// rows) and output_linear.weight (E, C, F) (each expert's down), which the engine reads as one (E·2F, C) and one
// (E·C, F) weight (param_names.h's ExpertParams takes each expert's rows from them). The same floats in the same
// order: a folder's tensor only takes the engine's shape as it loads, and the file's back as the model is saved.
#pragma once

#include "tensor.h"

namespace attnlab {

// Whether a file's tensor of shape `stored` (E, R, X) is a parameter of shape `param` (E·R, X) packed per expert.
bool is_packed_experts(const Shape& stored, const Shape& param);

}  // namespace attnlab
