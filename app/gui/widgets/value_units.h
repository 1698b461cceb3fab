// The power of ten a matrix's numbers print in. Values that all lie below 0.05 in magnitude (a gradient's
// ∂L/∂weights, 3.6e-5) would print as "0.00" at two decimals, so they print as multiples of 10^exponent, the
// exponent of the largest magnitude: -3.648e-5 beside 1.2e-5 prints "-3.65" and "1.20", and the caption names
// the unit, "∂L/∂weights  (×10^-5)". The attention grid's enlarged head and the zoomable detail use it alike.
#pragma once

#include <cstddef>
#include <string>

namespace attnlab::gui {

// The largest |v| of the finite values among v[0, n) (a masked score's −∞ is not a value to scale by); 0 if none.
float largest_magnitude(const float* v, size_t n);

// 10^exponent, the unit values up to `largest` (a magnitude) print in: floor(log10(largest)) below 0.05, else 0
// (plain numbers); 0 too for 0 and non-finite.
int print_exponent(float largest);

// The factor that turns a value into its printed multiple of the unit: 10^-exponent.
float print_factor(int exponent);

// `caption` with its unit named, "caption  (×10^-5)"; unchanged for exponent 0.
std::string caption_with_unit(const std::string& caption, int exponent);

}  // namespace attnlab::gui
