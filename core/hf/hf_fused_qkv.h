// BLOOM's query_key_value holds Q, K and V per head: its 3C output rows (of the weight (3C, C), of the bias (3C,))
// run head by head, each head's D rows of Q, then of K, then of V (modeling_bloom's view(…, H, 3, D)):
// row h·3D + which·D + d. The engine reads a packed Q;K;V as three C-wide blocks (param_names.h's
// packed_attention): row which·C + h·D + d. A folder's tensor is reordered into blocks as it is loaded and back
// when the model is saved, so the parameter's shape is the file's and only the order of its rows differs.
#pragma once

#include "config.h"
#include "tensor.h"

#include <string>

namespace attnlab {

// Whether `param` (a parameter name, param_names.h) is stored per head in a `family` folder.
bool is_per_head_qkv(Family family, const std::string& param);
// (3C, ·) or (3C,) per head -> in blocks, and back.
Tensor qkv_heads_to_blocks(const Tensor& t, int n_heads);
Tensor qkv_blocks_to_heads(const Tensor& t, int n_heads);

}  // namespace attnlab
