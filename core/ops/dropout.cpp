#include "ops/dropout.h"

#include <cassert>

namespace attnlab {

namespace {

uint64_t mix(uint64_t z) {  // SplitMix64's finaliser
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace

void dropout_in_place(Tensor& x, float p, uint64_t seed, uint64_t site) {
    assert(p >= 0.0f && p < 1.0f);
    if (p == 0.0f) return;
    const float keep_scale = 1.0f / (1.0f - p);
    const auto threshold = static_cast<uint64_t>(static_cast<double>(p) * 9007199254740992.0);  // p · 2^53
    const uint64_t stream = mix(seed ^ mix(site + 0x9E3779B97F4A7C15ull));
    for (size_t i = 0; i < x.data.size(); ++i) {
        const bool keep = (mix(stream + i * 0x9E3779B97F4A7C15ull) >> 11) >= threshold;  // 53 uniform bits
        x.data[i] = keep ? x.data[i] * keep_scale : 0.0f;
    }
}

uint64_t dropout_site(const std::string& path) {
    uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a
    for (unsigned char c : path) h = (h ^ c) * 0x100000001B3ull;
    return h;
}

}  // namespace attnlab
