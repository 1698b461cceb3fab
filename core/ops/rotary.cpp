// RoPE's frequencies (with linear and llama3 scaling) and the split-half rotation.
#include "ops/rotary.h"

#include "ops/lane_sum.h"
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

// cos and sin of every pair's angle at one position: (D/2,) each, in 16-float packets (lane_sum.h's map_in_blocks:
// a position's values do not depend on where its row lies). Eigen's packet sin and cos are within 1 ulp of
// std::sin and std::cos (checked over positions 0-140,000 with θ = 10000); one at a time, the 8,192 of a
// 256-token pass took 0.2 ms per rotated tensor, sixty times in a SmolLM2 pass.
class PairAngles {
public:
    explicit PairAngles(const std::vector<float>& inverse_frequencies)
        : theta_(inverse_frequencies), angle_(theta_.size()), cos_(theta_.size()), sin_(theta_.size()) {}
    void set_position(int64_t position) {
        for (size_t i = 0; i < theta_.size(); ++i) angle_[i] = rope_angle(position, theta_[i]);
        const auto n = static_cast<int64_t>(theta_.size());
        map_in_blocks(angle_.data(), cos_.data(), n, 0.0f, [](const auto& a) { return a.cos(); });
        map_in_blocks(angle_.data(), sin_.data(), n, 0.0f, [](const auto& a) { return a.sin(); });
    }
    size_t pairs() const { return theta_.size(); }
    const float* cos() const { return cos_.data(); }
    const float* sin() const { return sin_.data(); }

private:
    const std::vector<float>& theta_;
    std::vector<float> angle_, cos_, sin_;  // (D/2,) each
};

// One row of D entries turned pair by pair; by the opposite angles when `back` (the transpose of the rotation).
void rotate_row(const float* in, float* out, const PairAngles& a, bool back = false) {
    const size_t half = a.pairs();
    const float sign = back ? -1.0f : 1.0f;
    const float *cos = a.cos(), *sin = a.sin();
    for (size_t i = 0; i < half; ++i) {
        out[i] = in[i] * cos[i] - in[i + half] * (sign * sin[i]);
        out[i + half] = in[i + half] * cos[i] + in[i] * (sign * sin[i]);
    }
}

Tensor rotate_heads(const Tensor& x, const std::vector<float>& inverse_frequencies, int64_t first_position, bool back) {
    assert(x.rank() == 3 && x.dim(2) == 2 * static_cast<int64_t>(inverse_frequencies.size()));
    const int64_t H = x.dim(0), N = x.dim(1), D = x.dim(2);
    Tensor out = Tensor::uninitialized(x.shape);  // every row written whole
    parallel_rows(N, H * D, [&](int64_t first, int64_t end) {
        PairAngles angles(inverse_frequencies);
        for (int64_t r = first; r < end; ++r) {
            angles.set_position(first_position + r);
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
    PairAngles angles(inverse_frequencies);
    angles.set_position(position);
    Tensor out(x.shape);
    for (int64_t r = 0; r < x.dim(0); ++r)
        rotate_row(x.data.data() + r * x.dim(1), out.data.data() + r * x.dim(1), angles);
    return out;
}

}  // namespace attnlab
