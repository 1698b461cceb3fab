// Rows of a step's output, for the stepper's row-by-row re-run: an edit of the ids re-runs, in
// every step, only the rows that can differ. In a causal stack that is rows ≥ i after token i
// changed, and one new row per step after a token is appended (what a KV cache saves).
//
// A step's rows index its record's `rows` sequence along row_axis(): (N, ·) outputs along 0, the
// per-head stages (H, N, ·) along 1. Every step with inputs computes row r from row r of those
// inputs, except QKᵀ and weights·V, which also read every row of K or V (key_input()): there the
// attention's mask says which query rows can see a changed key. The masks and the embeddings
// (steps without inputs) are recomputed whole and compared with what they were.
#pragma once

#include "forward/step.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace attnlab {

// "No row differs, and the shape is the same": a first changed row past every row.
inline constexpr int64_t kRowsUnchanged = std::numeric_limits<int64_t>::max();

// The dim of the step's output that indexes its rows.
int row_axis(const StepId& id);
// The input whose rows are the output's columns (K of QKᵀ, V of weights·V); nullopt elsewhere.
std::optional<size_t> key_input(const StepId& id);
// Whether the step's rows can be computed apart: every step with inputs except the masks.
bool computes_by_rows(const Step& step);

int64_t row_count(const Tensor& t, int axis);
// Rows [from, N) of t along axis: (N − from, ·) or (H, N − from, ·).
Tensor slice_rows(const Tensor& t, int axis, int64_t from);
// Rows [from, to) of t along axis: (to − from, ·) or (H, to − from, ·).
Tensor slice_rows(const Tensor& t, int axis, int64_t from, int64_t to);
// A tensor of `shape`: rows [0, from) from `old` (columns past the new width dropped, new
// columns 0) and rows [from, N) from `fresh`. Built in old's own array, moved within it, when the
// shape only grows or only shrinks (its capacity grows as std::vector's does, so a sequence that
// grows a token at a time seldom copies).
Tensor merge_rows(Tensor old, const Tensor& fresh, int axis, int64_t from, const Shape& shape);

// The first row (along dim 0; a rank-1 tensor's entries are rows) where a and b differ: a column
// both have holds other bits, a column only one of them has is non-zero, or only one has the row.
// kRowsUnchanged when they are the same.
int64_t first_differing_row(const Tensor& a, const Tensor& b);
// The first query row of mask (Nq, Nk) that lets a key ≥ first_key through; kRowsUnchanged if none.
int64_t first_row_seeing(const Tensor& mask, int64_t first_key);
}  // namespace attnlab
