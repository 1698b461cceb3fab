// RoPE's frequencies (with linear and llama3 scaling) and the split-half rotation.
#include "ops/rotary.h"

#include "parallel.h"

#include <cassert>
#include <cmath>

namespace attnlab {

std::vector<float> rope_unscaled_frequencies(const RopeConfig& rope, int head_dim) {
    assert(head_dim % 2 == 0);
    std::vector<float> theta(static_cast<size_t>(head_dim / 2));  // (D/2,)
    for (size_t i = 0; i < theta.size(); ++i)
        theta[i] = static_cast<float>(1.0 / std::pow(static_cast<double>(rope.theta),
                                                     static_cast<double>(2 * i) / static_cast<double>(head_dim)));
    return theta;
}

std::vector<float> rope_inverse_frequencies(const RopeConfig& rope, int head_dim) {
    std::vector<float> theta = rope_unscaled_frequencies(rope, head_dim);
    switch (rope.scaling) {
        case RopeScaling::none: break;
        case RopeScaling::linear:
            for (float& t : theta) t /= rope.factor;
            break;
        case RopeScaling::llama3: {
            const double L = rope.original_max_position, pi = 3.14159265358979323846;
            const double low_wavelength = L / rope.low_freq_factor, high_wavelength = L / rope.high_freq_factor;
            for (float& t : theta) {
                const double wavelength = 2.0 * pi / t;
                if (wavelength > low_wavelength) {
                    t = static_cast<float>(t / rope.factor);
                } else if (!(wavelength < high_wavelength)) {
                    const double s = (L / wavelength - rope.low_freq_factor) /
                                     (static_cast<double>(rope.high_freq_factor) - rope.low_freq_factor);
                    t = static_cast<float>((1.0 - s) * t / rope.factor + s * t);
                }
            }
            break;
        }
    }
    return theta;
}

float rope_angle(int64_t position, float inverse_frequency) { return static_cast<float>(position) * inverse_frequency; }

namespace {

// cos and sin of every pair's angle at one position: (D/2,) each.
struct PairAngles {
    std::vector<float> cos, sin;
    PairAngles(const std::vector<float>& inverse_frequencies, int64_t position) {
        for (float theta : inverse_frequencies) {
            const float angle = rope_angle(position, theta);
            cos.push_back(std::cos(angle));
            sin.push_back(std::sin(angle));
        }
    }
};

// One row of D entries turned pair by pair; by the opposite angles when `back` (the transpose of the rotation).
void rotate_row(const float* in, float* out, const PairAngles& a, bool back = false) {
    const size_t half = a.cos.size();
    const float sign = back ? -1.0f : 1.0f;
    for (size_t i = 0; i < half; ++i) {
        out[i] = in[i] * a.cos[i] - in[i + half] * (sign * a.sin[i]);
        out[i + half] = in[i + half] * a.cos[i] + in[i] * (sign * a.sin[i]);
    }
}

Tensor rotate_heads(const Tensor& x, const std::vector<float>& inverse_frequencies, int64_t first_position, bool back) {
    assert(x.rank() == 3 && x.dim(2) == 2 * static_cast<int64_t>(inverse_frequencies.size()));
    const int64_t H = x.dim(0), N = x.dim(1), D = x.dim(2);
    Tensor out = Tensor::uninitialized(x.shape);  // every row written whole
    parallel_rows(N, H * D, [&](int64_t first, int64_t end) {
        for (int64_t r = first; r < end; ++r) {
            const PairAngles angles(inverse_frequencies, first_position + r);
            for (int64_t h = 0; h < H; ++h)
                rotate_row(x.data.data() + (h * N + r) * D, out.data.data() + (h * N + r) * D, angles, back);
        }
    });
    return out;
}

}  // namespace

Tensor apply_rotary(const Tensor& x, const std::vector<float>& inverse_frequencies, int64_t first_position) {
    return rotate_heads(x, inverse_frequencies, first_position, false);
}

Tensor apply_rotary_backward(const Tensor& dy, const std::vector<float>& inverse_frequencies, int64_t first_position) {
    return rotate_heads(dy, inverse_frequencies, first_position, true);
}

Tensor rotate_rows_at(const Tensor& x, const std::vector<float>& inverse_frequencies, int64_t position) {
    assert(x.rank() == 2 && x.dim(1) == 2 * static_cast<int64_t>(inverse_frequencies.size()));
    const PairAngles angles(inverse_frequencies, position);
    Tensor out(x.shape);
    for (int64_t r = 0; r < x.dim(0); ++r)
        rotate_row(x.data.data() + r * x.dim(1), out.data.data() + r * x.dim(1), angles);
    return out;
}

}  // namespace attnlab
