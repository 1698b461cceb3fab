// F16 -> F32 by rebiasing the exponent (15 -> 127); BF16 -> F32 by appending 16 zero bits.
#include "io/half_float.h"

#include <bit>

namespace attnlab::io {

float f16_to_f32(uint16_t bits) {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1Fu;
    const uint32_t mantissa = bits & 0x3FFu;
    uint32_t out;
    if (exponent == 0x1F) {
        out = sign | 0x7F800000u | (mantissa << 13);  // ±inf, or NaN with its payload kept
    } else if (exponent != 0) {
        out = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        out = sign;  // ±0
    } else {
        // subnormal: mantissa · 2^-24 = 1.f · 2^(p - 24), p = index of the top set bit
        const int p = std::bit_width(mantissa) - 1;
        out = sign | (static_cast<uint32_t>(p - 24 + 127) << 23) | ((mantissa << (23 - p)) & 0x7FFFFFu);
    }
    return std::bit_cast<float>(out);
}

float bf16_to_f32(uint16_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

}  // namespace attnlab::io
