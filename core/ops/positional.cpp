// The sinusoidal table, computed in double and rounded once to float.
#include "ops/positional.h"

#include <cmath>

namespace attnlab {

Tensor sinusoidal_encoding(int64_t n_positions, int64_t d_model, SinusoidLayout layout) {
    Tensor pe({n_positions, d_model});
    const int64_t n_sines = (d_model + 1) / 2;  // halves: the sines' columns
    for (int64_t pos = 0; pos < n_positions; ++pos) {
        for (int64_t j = 0; j < d_model; ++j) {
            const bool interleaved = layout == SinusoidLayout::interleaved;
            const bool sine = interleaved ? j % 2 == 0 : j < n_sines;
            const int64_t i = interleaved ? j / 2 : (sine ? j : j - n_sines);  // the pair's frequency index
            const double angle =
                static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(2 * i) / static_cast<double>(d_model));
            pe.data[static_cast<size_t>(pos * d_model + j)] =
                static_cast<float>(sine ? std::sin(angle) : std::cos(angle));
        }
    }
    return pe;
}

}  // namespace attnlab
