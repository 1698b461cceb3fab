// Activation patching: run the corrupted input with one piece of the clean run put back, and read the metric
// (attribution_metric.h: logit:A@POS, prob:A@POS = softmax(logits[POS])[A], logit-diff:A,B@POS) off the logits;
// and attribution patching, the same grid estimated from one backward pass at the corrupted run (the metric's
// gradient at the logits is backward/loss.h's, for all three): metric(corrupt) + Σ (clean − corrupt) · ∂metric/∂piece
// over the cell's entries.
// The pieces of the stack the logits read (the decoder's; an encoder-only model's encoder):
//   residual      the stream entering layer l at position p: input 0 of the layer's first residual add (the
//                 stack's input for l = 0; after a post-LN model's norm, the norm's output)          L × T
//   attn-out      the self-attention's output after W_O, before the add (input 1 of it)            L × T
//   ffn-out       the FFN's output, before the add (input 1 of the layer's last add)               L × T
//   heads         head h's weights·V (H, N, D) at every position                                   L × H
// An encoder-decoder's (Marian, ours), whose corrupted sequence is the source: the same four of the encoder,
// rows its layers, columns the source positions (S) or heads, and the decoder's cross-attention:
//   enc-residual, enc-attn-out, enc-ffn-out                                                         L_enc × S
//   enc-heads                                                                                       L_enc × H
//   cross-out     the cross-attention's output after W_O, before the add (input 1 of sublayer 2)   L × T
//   cross-heads   cross-attention head h's weights·V (H, T, D) at every target position             L × H
// A model without a piece (enc-* or cross-* of a decoder-only or encoder-only model) gets a one-line error.
// A patch is Stepper::patch_output: the row re-run computes only the rows the patch can change (an encoder row
// reaches every decoder row through the cross-attention's keys and values), then undoes it.
#pragma once

#include "analysis/attribution_metric.h"
#include "analysis/grid_progress.h"
#include "result.h"
#include "stepper.h"

#include <functional>
#include <string>
#include <vector>

namespace attnlab {

enum class PatchPiece {
    residual,
    attn_out,
    ffn_out,
    heads,
    enc_residual,
    enc_attn_out,
    enc_ffn_out,
    enc_heads,
    cross_out,
    cross_heads
};
inline constexpr PatchPiece kPatchPieces[] = {
    PatchPiece::residual,     PatchPiece::attn_out,     PatchPiece::ffn_out,     PatchPiece::heads,
    PatchPiece::enc_residual, PatchPiece::enc_attn_out, PatchPiece::enc_ffn_out, PatchPiece::enc_heads,
    PatchPiece::cross_out,    PatchPiece::cross_heads};
// "residual", "attn-out", "ffn-out", "heads", "enc-residual", "enc-attn-out", "enc-ffn-out", "enc-heads",
// "cross-out", "cross-heads".
Result<PatchPiece> parse_patch_piece(const std::string& text);
const char* to_string(PatchPiece piece);
// Whether the grid's columns are heads (heads, enc-heads, cross-heads) rather than positions.
bool by_head(PatchPiece piece);
// Whether the piece is the encoder's of an encoder-decoder (enc-*): its positions are the source's.
bool in_encoder(PatchPiece piece);

// The step each row (layer) of the piece's grid patches, in layer order. Errors: no logits, no such sublayer, no
// encoder-decoder for enc-* and cross-*.
Result<std::vector<size_t>> patch_steps(const Stepper& stepper, PatchPiece piece);

// The metric read off the stepper's logits (prob: softmax(logits[POS])[A], in double); one-line errors for a
// position past the end or a token id outside the vocabulary, as attribute_logits gives them.
Result<double> metric_value(const Stepper& stepper, const AttributionMetric& metric);

struct PatchGrid {
    PatchPiece piece = PatchPiece::residual;
    int64_t rows = 0, cols = 0;  // layers × positions, or layers × heads
    double clean = 0.0;          // the metric on the clean run
    double corrupt = 0.0;        // on the corrupted run
    std::vector<double> values;  // (rows, cols): the patched run's metric, or its gradient estimate

    double at(int64_t r, int64_t c) const { return values[static_cast<size_t>(r * cols + c)]; }
    // (value − corrupt) / (clean − corrupt): 1 where the patch brings the whole clean metric back; NaN when the
    // clean and corrupted metrics are equal.
    double normalised(int64_t r, int64_t c) const;
};

// The clean run's outputs of the patch steps (one tensor per layer), taken before the ids change.
std::vector<Tensor> clean_pieces(const Stepper& clean, const std::vector<size_t>& steps);

// The exact grid on `corrupted` (run to its end): each cell one patch_output of the clean values, the metric
// read, the patch undone; a cell whose clean values are the corrupted run's own bits (a position before the first
// token that differs, in a causal stack) is not run: its value is the corrupted metric, as the patch would give it
// bit for bit. The stepper ends as it began, also when `progress` stops the grid (the error kGridStopped).
Result<PatchGrid> patch_grid(Stepper& corrupted, PatchPiece piece, const std::vector<Tensor>& clean,
                             const AttributionMetric& metric, double clean_value,
                             Stepper::PatchRerun rerun = Stepper::PatchRerun::rows, const GridProgress& progress = {});

// The gradient estimate of the same grid, from one backward pass of the metric at `corrupted` (every metric kind:
// backward/loss.h's logit, prob and logit-diff).
Result<PatchGrid> patch_grid_gradient(const Stepper& corrupted, PatchPiece piece, const std::vector<Tensor>& clean,
                                      const AttributionMetric& metric, double clean_value);

// Pearson's correlation of two grids' values over their cells (NaN when either is constant).
double grid_correlation(const PatchGrid& a, const PatchGrid& b);

}  // namespace attnlab
