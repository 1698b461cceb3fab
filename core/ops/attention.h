// Scaled dot-product attention, one stage at a time, per head (paper §3.2.1–3.2.2):
//   weights = softmax(QKᵀ/√D + mask),  context = weights·V,  out = concat(heads)·W_Oᵀ + b_O
// Shapes: queries Tq, keys Tk, heads H, per-head width D, C = H·D. K and V may have fewer heads,
// H_kv dividing H (grouped-query attention): query head h reads K/V head kv_head_of(h).
// A batch of B sequences is B·H heads, sequence-major: head b·H + h is head h of sequence b (and K/V head
// b·H_kv + g), so kv_head_of pairs the right heads, and the mask has a block of Tq rows per sequence.
#pragma once

#include "tensor.h"

#include <set>

namespace attnlab {

Tensor split_heads(const Tensor& x, int64_t n_heads, int64_t batch = 1);  // (B·T, C) -> (B·H, T, D)
Tensor merge_heads(const Tensor& x, int64_t batch = 1);                   // (B·H, T, D) -> (B·T, C)
// The K/V head that query head h shares with the other H / H_kv heads of its group.
int64_t kv_head_of(int64_t query_head, int64_t n_heads, int64_t n_kv_heads);
Tensor attention_scores(const Tensor& q, const Tensor& k);  // (H, Tq, D), (H_kv, Tk, D) -> QKᵀ (H, Tq, Tk)
// True when no entry of QKᵀ can be NaN or ±∞, whatever the order of its sums: q and k are finite, and in
// every head D times the largest |query entry| times the largest |key entry| is at most FLT_MAX / 2
// (|q·k| ≤ Σ|q_i||k_i| ≤ D·max|q|·max|k|, and rounding over D terms adds far less than the other half).
// O(H·T·D), against QKᵀ's O(H·Tq·Tk·D).
bool scores_cannot_overflow(const Tensor& q, const Tensor& k);
// The same from the largest |entry| of each row of each head of q (H, Tq) and of k (H_kv, Tk), as
// largest_magnitude_by_row gives them: a row re-run keeps those of the rows it keeps (row_magnitudes.h).
bool scores_cannot_overflow(const Tensor& q_largest, const Tensor& k_largest, int64_t d_head);
// The largest |entry| of each of rows [from, T) of each head of x (H, T, D): (H, T − from), +∞ for a row holding a
// NaN or ±∞.
Tensor largest_magnitude_by_row(const Tensor& x, int64_t from);
Tensor scale_scores(const Tensor& scores, float d_head);  // scores / √D
// −∞ wherever mask (B·Tq, Tk) is 0; sequence b's block of Tq rows is shared by its H heads.
Tensor mask_scores(const Tensor& scaled, const Tensor& mask);
// The same two, written over their input (the same numbers, without a new (H, Tq, Tk) array).
void scale_scores_in_place(Tensor& scores, float d_head);
void mask_scores_in_place(Tensor& scaled, const Tensor& mask);
// weights (B·H, Tq, Tk) · V (B·H_kv, Tk, D) -> (B·H, Tq, D); heads in `ablated` (numbered 0..H−1 in each
// sequence) give zeros.
Tensor attention_context(const Tensor& weights, const Tensor& v, const std::set<int>& ablated, int64_t batch = 1);

// Backward of the stages. A K/V head shared by several query heads sums their gradients.
struct ScoresGrads {
    Tensor dq, dk;  // (H, Tq, D), (H_kv, Tk, D)
};
// scores[h] = Q[h]·K[g(h)]ᵀ: dQ[h] = dS[h]·K[g(h)], dK[g] = Σ_{h in g} dS[h]ᵀ·Q[h].
ScoresGrads attention_scores_backward(const Tensor& q, const Tensor& k, const Tensor& d_scores);
// masked = scaled where the mask allows, −∞ elsewhere: the gradient passes where the mask allows, 0 elsewhere.
Tensor mask_scores_backward(const Tensor& d_masked, const Tensor& mask);
struct ContextGrads {
    Tensor d_weights, dv;  // (H, Tq, Tk), (H_kv, Tk, D)
};
// context[h] = weights[h]·V[g(h)]: dW[h] = dC[h]·V[g]ᵀ, dV[g] = Σ_{h in g} W[h]ᵀ·dC[h]; zero for ablated heads.
ContextGrads attention_context_backward(const Tensor& weights, const Tensor& v, const Tensor& d_context,
                                        const std::set<int>& ablated, int64_t batch = 1);

}  // namespace attnlab
