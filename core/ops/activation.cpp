// ReLU, GELU (erf), GELU (tanh) and SiLU, elementwise.
#include "ops/activation.h"

#include "ops/lane_sum.h"
#include "parallel.h"

#include <cmath>

namespace attnlab {

Tensor activation_forward(const Tensor& h, Activation kind) {
    Tensor a = Tensor::uninitialized(h.shape);  // every entry written below
    const int64_t width = h.rank() == 0 ? 1 : h.dim(-1), rows = width == 0 ? 0 : h.numel() / width;
    parallel_rows(rows, width, [&](int64_t first, int64_t end) {
        const float* x = h.data.data() + first * width;
        float* y = a.data.data() + first * width;
        const int64_t n = (end - first) * width;
        switch (kind) {
            case Activation::relu:
                for (int64_t i = 0; i < n; ++i) y[i] = x[i] < 0.0f ? 0.0f : x[i];  // NaN stays NaN, as in PyTorch
                break;
            case Activation::gelu:
                for (int64_t i = 0; i < n; ++i) y[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * 0.70710678118654752f));
                break;
            case Activation::gelu_tanh:
                // Eigen's vectorised tanh (70x faster than std::tanh one value at a time, within 1e-6), on whole
                // 16-float blocks so that every value takes the same path wherever it lies (ops/lane_sum.h).
                map_in_blocks(x, y, n, 0.0f, [](const auto& v) {
                    return 0.5f * v * (1.0f + (0.79788456080286536f * (v + 0.044715f * v.cube())).tanh());
                });
                break;
            case Activation::silu:
                map_in_blocks(x, y, n, 0.0f, [](const auto& v) { return v / (1.0f + (-v).exp()); });
                break;
        }
    });
    return a;
}

const char* activation_formula(Activation kind) {
    switch (kind) {
        case Activation::relu: return "a = max(0, h)";
        case Activation::gelu: return "a = h·Φ(h) = ½h(1 + erf(h/√2))";
        case Activation::gelu_tanh: return "a = ½h(1 + tanh(√(2/π)(h + 0.044715h³)))";
        case Activation::silu: return "a = SiLU(h) = h·σ(h) = h / (1 + e^(−h))";
    }
    return "";
}

}  // namespace attnlab
