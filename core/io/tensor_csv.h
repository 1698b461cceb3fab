// Any tensor as CSV: one matrix row per line. A rank-3 tensor (H, T, D) is written as H blocks,
// each preceded by a "# [h]" line. Written atomically.
#pragma once

#include "result.h"
#include "tensor.h"

#include <string>

namespace attnlab::io {

std::string tensor_to_csv(const Tensor& tensor);
Status write_tensor_csv(const std::string& path, const Tensor& tensor);

}  // namespace attnlab::io
