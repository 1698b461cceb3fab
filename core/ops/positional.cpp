// PE(pos, 2i) = sin(pos / 10000^(2i/C)), PE(pos, 2i+1) = cos(pos / 10000^(2i/C)); computed in double.
#include "ops/positional.h"

#include <cmath>

namespace attnlab {

Tensor sinusoidal_encoding(int64_t n_positions, int64_t d_model) {
    Tensor pe({n_positions, d_model});
    for (int64_t pos = 0; pos < n_positions; ++pos) {
        for (int64_t j = 0; j < d_model; ++j) {
            const int64_t two_i = j - (j % 2);
            const double angle = static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(two_i) / d_model);
            pe.data[static_cast<size_t>(pos * d_model + j)] =
                static_cast<float>(j % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return pe;
}

}  // namespace attnlab
