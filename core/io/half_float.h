// F16 (IEEE binary16) and BF16 (bfloat16) bit patterns widened to F32. Exact: every F16 and
// BF16 value, subnormals, ±0, ±inf and NaN payloads included, is representable in F32.
#pragma once

#include <cstdint>

namespace attnlab::io {

float f16_to_f32(uint16_t bits);
float bf16_to_f32(uint16_t bits);

}  // namespace attnlab::io
