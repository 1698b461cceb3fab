// The arithmetic behind one number of the playground, written out with its values, as a
// student would on paper. Rows, columns, tokens and dims count from 1, as the notes do.
//   QKᵀ[1,2] = q₁·k₂ = 2×0 + 1×1 = 1
#pragma once

#include "teach/hand_attention.h"

#include <string>

namespace attnlab {

// At most three decimals without trailing zeros, U+2212 for minus, ∞ for infinity:
// "1", "0.707", "−2.5", "−∞". Magnitudes from 10⁵ on in scientific form.
std::string hand_number(double x);

// Q[i,d] = x_i·W_Q[:,d] = … (which: 'Q', 'K' or 'V'); only meaningful when the spec projects X.
std::string projection_formula(const HandSpec& spec, char which, int i, int d);
std::string score_formula(const HandAttention& a, int i, int j);                         // QKᵀ[i,j] = q_i·k_j = …
std::string scaled_formula(const HandSpec& spec, const HandAttention& a, int i, int j);  // s / √D = …
std::string masked_formula(const HandSpec& spec, const HandAttention& a, int i, int j);  // mask[i,j] = 1 → s
std::string weight_formula(const HandAttention& a, int i, int j);                        // e^s_ij / Σ_j' e^s_ij' = …
std::string context_formula(const HandAttention& a, int i, int d);                       // out[i,d] = w_i·V[:,d] = …

}  // namespace attnlab
