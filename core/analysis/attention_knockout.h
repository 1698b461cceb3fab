// Attention knockout: block one query → key edge of one attention (one use at one layer), in one head or in every
// head, and read the metric (attribution_metric.h) off the logits. The block is what a mask cell does: the edge's
// score becomes −∞ before the softmax, so its weight is 0 and the query's row renormalises over the other keys.
// A mask cell blocks the edge in every layer of its use; a knockout blocks it in one layer only.
//
// How it runs: the blocked rows of the weights (H, Tq, Tk) are the softmax of the attention's masked scores with
// −∞ in that cell, computed by the same kernel the step uses; the query's row of the attention's output (after W_O)
// is then computed from them by the context, concat and W_O steps' own computations, and Stepper::patch_output puts
// it in and re-runs only the rows it can change. The metric is read and the patch undone: the stepper ends as it
// began, bit for bit.
#pragma once

#include "analysis/attribution_metric.h"
#include "analysis/grid_progress.h"
#include "result.h"
#include "stepper.h"

#include <functional>
#include <string>
#include <vector>

namespace attnlab {

// Which edges: attention `use` at `layer`, head `head` (−1: every head of the layer).
struct KnockoutSite {
    AttentionUse use = AttentionUse::decoder_self;
    int layer = 0;
    int head = -1;
};

struct KnockoutResult {
    double before = 0.0;          // the metric of the run as it is
    double after = 0.0;           // with the edge blocked
    bool already_masked = false;  // the mask already blocks the edge in the chosen heads: after == before, bit for bit
    double change() const { return after - before; }
};

// "encoder-self", "decoder-self" (or with '_', as to_string(AttentionUse) writes them) and "cross".
Result<AttentionUse> parse_attention_use(const std::string& text);

// One knockout of edge (query, key) on `stepper`, run to its end. One-line errors: an attention the model lacks,
// a layer or head out of range, a query or key past the end, a metric the logits cannot give.
Result<KnockoutResult> knockout_edge(Stepper& stepper, const KnockoutSite& site, int64_t query, int64_t key,
                                     const AttributionMetric& metric);

struct KnockoutGrid {
    KnockoutSite site;
    int64_t rows = 0, cols = 0;  // queries Tq × keys Tk
    double before = 0.0;         // the metric without a knockout
    std::vector<double> values;  // (rows, cols): after − before; NaN where the mask already blocks the edge

    double at(int64_t q, int64_t k) const { return values[static_cast<size_t>(q * cols + k)]; }
};

// Every edge's knockout, one at a time (each equal to knockout_edge's, bit for bit); `progress` counts the edges the
// mask lets through, and may stop the grid (the error kGridStopped).
Result<KnockoutGrid> knockout_grid(Stepper& stepper, const KnockoutSite& site, const AttributionMetric& metric,
                                   const GridProgress& progress = {});

}  // namespace attnlab
