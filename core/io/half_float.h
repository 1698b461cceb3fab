// F16 (IEEE binary16) and BF16 (bfloat16) bit patterns widened to F32. Exact: every F16 and
// BF16 value, subnormals, ±0, ±inf and NaN payloads included, is representable in F32.
#pragma once

#include "bit_cast.h"
#include <cstddef>
#include <cstdint>

namespace attnlab::io {

// Branch-free, so a loop over an array vectorises. The exponent is rebiased (15 -> 127); at 31 it
// becomes 255, a NaN's payload kept bit for bit; a subnormal m · 2^-24 is read as the normal
// (1 + m/1024) · 2^-14 and 2^-14 subtracted, which is exact.
inline float f16_to_f32(uint16_t bits) {
    constexpr uint32_t exponent_mask = 0x1Fu << 23;  // F16's exponent field once shifted into F32's place
    const uint32_t magnitude = static_cast<uint32_t>(bits & 0x7FFFu) << 13;
    const uint32_t exponent = magnitude & exponent_mask;
    const uint32_t rebiased = magnitude + ((127u - 15u) << 23) + (exponent == exponent_mask ? (128u - 16u) << 23 : 0u);
    const float subnormal = bit_cast<float>(rebiased + (1u << 23)) - bit_cast<float>((127u - 14u) << 23);
    const float unsigned_value = exponent == 0 ? subnormal : bit_cast<float>(rebiased);
    return bit_cast<float>(bit_cast<uint32_t>(unsigned_value) | static_cast<uint32_t>(bits & 0x8000u) << 16);
}

inline float bf16_to_f32(uint16_t bits) { return bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

// dst[i] = the F16 (BF16) value in bytes src[2i, 2i + 2), little-endian, for i in [0, n); src has
// any alignment. A long array is split between thread_count() threads (parallel.h).
void f16_array_to_f32(const uint8_t* src, float* dst, size_t n);
void bf16_array_to_f32(const uint8_t* src, float* dst, size_t n);

}  // namespace attnlab::io
