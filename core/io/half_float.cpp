// F16/BF16 arrays widened to F32: a vectorised loop over each thread's contiguous range.
#include "io/half_float.h"

#include "parallel.h"

namespace attnlab::io {
namespace {

// Values per thread at least: a shorter range costs more to hand to a thread than to widen here.
constexpr int64_t kGrain = int64_t{1} << 17;

template <float (*widen)(uint16_t)>
void widen_all(const uint8_t* src, float* dst, size_t n) {
    parallel_for(0, static_cast<int64_t>(n), kGrain, [=](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) dst[i] = widen(static_cast<uint16_t>(src[2 * i] | src[2 * i + 1] << 8));
    });
}

}  // namespace

void f16_array_to_f32(const uint8_t* src, float* dst, size_t n) { widen_all<f16_to_f32>(src, dst, n); }
void bf16_array_to_f32(const uint8_t* src, float* dst, size_t n) { widen_all<bf16_to_f32>(src, dst, n); }

}  // namespace attnlab::io
