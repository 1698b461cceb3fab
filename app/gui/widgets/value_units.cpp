// The printed unit of small values: the exponent of the largest magnitude, its factor, its caption.
#include "widgets/value_units.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

float largest_magnitude(const float* v, size_t n) {
    float largest = 0.0f;
    for (size_t i = 0; i < n; ++i)
        if (std::isfinite(v[i])) largest = std::max(largest, std::abs(v[i]));
    return largest;
}

int print_exponent(float largest) {
    if (!std::isfinite(largest) || largest <= 0.0f || largest >= 0.05f) return 0;
    return static_cast<int>(std::floor(std::log10(largest)));
}

float print_factor(int exponent) { return std::pow(10.0f, static_cast<float>(-exponent)); }

std::string caption_with_unit(const std::string& caption, int exponent) {
    if (exponent == 0) return caption;
    return caption + "  (×10^" + std::to_string(exponent) + ")";
}

}  // namespace attnlab::gui
