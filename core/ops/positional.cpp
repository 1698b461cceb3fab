// The sinusoidal table, computed in double and rounded once to float.
#include "ops/positional.h"

#include <cmath>

namespace attnlab {

SinusoidColumn sinusoid_column(int64_t j, int64_t d_model, SinusoidLayout layout) {
    if (layout == SinusoidLayout::interleaved) return {j / 2, j % 2 == 0};
    const int64_t n_sines = (d_model + 1) / 2;
    return j < n_sines ? SinusoidColumn{j, true} : SinusoidColumn{j - n_sines, false};
}

Tensor sinusoidal_encoding(int64_t n_positions, int64_t d_model, SinusoidLayout layout) {
    Tensor pe({n_positions, d_model});
    for (int64_t j = 0; j < d_model; ++j) {
        const SinusoidColumn column = sinusoid_column(j, d_model, layout);
        const double denominator =
            std::pow(10000.0, static_cast<double>(2 * column.pair) / static_cast<double>(d_model));
        for (int64_t pos = 0; pos < n_positions; ++pos) {
            const double angle = static_cast<double>(pos) / denominator;  // as the paper writes it, and HF computes it
            pe.data[static_cast<size_t>(pos * d_model + j)] =
                static_cast<float>(column.sine ? std::sin(angle) : std::cos(angle));
        }
    }
    return pe;
}

}  // namespace attnlab
