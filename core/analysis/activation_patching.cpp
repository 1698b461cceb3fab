#include "analysis/activation_patching.h"

#include "backward/backward_pass.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace attnlab {

namespace {

// The residual add of sublayer k of layer l, if the model has it.
std::optional<size_t> add_of(const Stepper& s, Stack stack, int layer, int k) {
    return s.find(StepId::sublayer_at(StepKind::residual, stack, layer, k));
}

// Rows [0, N) of head h of an (H, N, D) tensor: (N, D).
Tensor head_slice(const Tensor& t, int64_t h) {
    const int64_t N = t.dim(1), D = t.dim(2);
    Tensor out({N, D});
    std::copy_n(t.data.begin() + h * N * D, N * D, out.data.begin());
    return out;
}

// Row p of an (N, ·) tensor: (1, ·).
Tensor one_row(const Tensor& t, int64_t p) {
    const int64_t W = t.numel() / t.dim(0);
    Tensor out({1, W});
    std::copy_n(t.data.begin() + p * W, W, out.data.begin());
    return out;
}

// The grid's shape and the corrupted outputs, checked against the clean pieces.
Result<std::vector<const Tensor*>> corrupted_pieces(const Stepper& s, const std::vector<size_t>& steps,
                                                    const std::vector<Tensor>& clean) {
    if (clean.size() != steps.size())
        return Error{"the clean run has " + std::to_string(clean.size()) + " pieces, the corrupted one " +
                     std::to_string(steps.size())};
    std::vector<const Tensor*> out;
    for (size_t l = 0; l < steps.size(); ++l) {
        const Tensor* t = s.output(s.step(steps[l]).path);
        if (!t) return Error{"the corrupted run has not reached '" + s.step(steps[l]).path + "'"};
        if (t->shape != clean[l].shape)
            return Error{"'" + s.step(steps[l]).path + "' is " + shape_string(clean[l].shape) +
                         " on the clean run and " + shape_string(t->shape) +
                         " on the corrupted one: the two inputs must have the same length"};
        out.push_back(t);
    }
    return out;
}

PatchGrid empty_grid(PatchPiece piece, const Tensor& first, int64_t layers, double clean, double corrupt) {
    PatchGrid g;
    g.piece = piece;
    g.rows = layers;
    g.cols = first.dim(0);  // positions (N, ·), or heads (H, N, D)
    g.clean = clean;
    g.corrupt = corrupt;
    g.values.assign(static_cast<size_t>(g.rows * g.cols), 0.0);
    return g;
}

}  // namespace

Result<PatchPiece> parse_patch_piece(const std::string& text) {
    for (PatchPiece piece : kPatchPieces)
        if (text == to_string(piece)) return piece;
    return Error{"unknown piece '" + text +
                 "': residual, attn-out, ffn-out, heads, enc-residual, enc-attn-out, enc-ffn-out, enc-heads, cross-out "
                 "or cross-heads"};
}

const char* to_string(PatchPiece piece) {
    switch (piece) {
        case PatchPiece::residual: return "residual";
        case PatchPiece::attn_out: return "attn-out";
        case PatchPiece::ffn_out: return "ffn-out";
        case PatchPiece::heads: return "heads";
        case PatchPiece::enc_residual: return "enc-residual";
        case PatchPiece::enc_attn_out: return "enc-attn-out";
        case PatchPiece::enc_ffn_out: return "enc-ffn-out";
        case PatchPiece::enc_heads: return "enc-heads";
        case PatchPiece::cross_out: return "cross-out";
        case PatchPiece::cross_heads: return "cross-heads";
    }
    return "?";
}

bool by_head(PatchPiece piece) {
    return piece == PatchPiece::heads || piece == PatchPiece::enc_heads || piece == PatchPiece::cross_heads;
}

bool in_encoder(PatchPiece piece) {
    return piece == PatchPiece::enc_residual || piece == PatchPiece::enc_attn_out || piece == PatchPiece::enc_ffn_out ||
           piece == PatchPiece::enc_heads;
}

namespace {

// The part of a layer a piece is, the same in either stack: enc-residual is residual in the encoder.
enum class LayerPart { residual, attn_out, ffn_out, heads, cross_out, cross_heads };

LayerPart part_of(PatchPiece piece) {
    switch (piece) {
        case PatchPiece::residual:
        case PatchPiece::enc_residual: return LayerPart::residual;
        case PatchPiece::attn_out:
        case PatchPiece::enc_attn_out: return LayerPart::attn_out;
        case PatchPiece::ffn_out:
        case PatchPiece::enc_ffn_out: return LayerPart::ffn_out;
        case PatchPiece::heads:
        case PatchPiece::enc_heads: return LayerPart::heads;
        case PatchPiece::cross_out: return LayerPart::cross_out;
        case PatchPiece::cross_heads: return LayerPart::cross_heads;
    }
    return LayerPart::residual;
}

// The step of one layer's part: its add's inputs (the stream, the sublayer's output), or an attention's stage.
std::optional<size_t> part_step(const Stepper& s, Stack stack, int l, LayerPart part) {
    const AttentionUse self = stack == Stack::encoder ? AttentionUse::encoder_self : AttentionUse::decoder_self;
    const auto first = add_of(s, stack, l, 1);
    std::optional<size_t> last;
    for (int k = 1; add_of(s, stack, l, k); ++k) last = add_of(s, stack, l, k);
    const auto cross_add = add_of(s, stack, l, 2);
    const auto kind_of = [&](size_t i) { return s.step(i).record.id.kind; };
    switch (part) {
        case LayerPart::residual: return first ? std::optional<size_t>(s.input_indices(*first).at(0)) : std::nullopt;
        case LayerPart::attn_out:
            if (first && kind_of(s.input_indices(*first).at(1)) == StepKind::attention)
                return s.input_indices(*first)[1];
            return std::nullopt;
        case LayerPart::ffn_out:
            if (last && kind_of(s.input_indices(*last).at(1)) == StepKind::ffn) return s.input_indices(*last)[1];
            return std::nullopt;
        case LayerPart::heads: return s.find(StepId::attention_at({self, l}, AttentionStage::context));
        case LayerPart::cross_out: {
            if (!cross_add) return std::nullopt;
            const size_t out = s.input_indices(*cross_add).at(1);
            const StepId& id = s.step(out).record.id;
            if (id.kind == StepKind::attention && id.use == AttentionUse::cross) return out;
            return std::nullopt;
        }
        case LayerPart::cross_heads:
            return s.find(StepId::attention_at({AttentionUse::cross, l}, AttentionStage::context));
    }
    return std::nullopt;
}

}  // namespace

Result<std::vector<size_t>> patch_steps(const Stepper& s, PatchPiece piece) {
    const ModelConfig& config = s.config();
    if (config.output_head == OutputHead::none) return Error{"this model has no output head: no metric to patch"};
    const LayerPart part = part_of(piece);
    const bool enc_dec = config.has_encoder() && config.has_decoder();
    if ((in_encoder(piece) || part == LayerPart::cross_out || part == LayerPart::cross_heads) && !enc_dec)
        return Error{std::string(to_string(piece)) + " patches an encoder-decoder's " +
                     (in_encoder(piece) ? "encoder" : "cross-attention") + ": this model is " +
                     (config.has_encoder() ? "encoder-only" : "decoder-only") +
                     " (its pieces: residual, attn-out, ffn-out, heads)"};
    const Stack stack = in_encoder(piece) ? Stack::encoder : StepId::head(StepKind::logits, config).stack;
    const int L = stack == Stack::encoder ? config.n_encoder_layers : config.n_decoder_layers;
    std::vector<size_t> steps;
    for (int l = 0; l < L; ++l) {
        const auto step = part_step(s, stack, l, part);
        if (!step) return Error{"layer " + std::to_string(l) + " has no " + to_string(piece) + " to patch"};
        steps.push_back(*step);
    }
    return steps;
}

Result<double> metric_value(const Stepper& s, const AttributionMetric& metric) {
    if (s.config().output_head == OutputHead::none) return Error{"this model has no output head: no logits"};
    const Tensor* logits = s.output(StepId::head(StepKind::logits, s.config()));  // (N, V)
    if (!logits) return Error{"the forward pass has not reached the logits yet"};
    const int64_t N = logits->dim(0), V = logits->dim(1), q = metric.position;
    if (q < 0 || q >= N)
        return Error{"position " + std::to_string(q) + " is past the end: the logits have " + std::to_string(N) +
                     " positions (0 to " + std::to_string(N - 1) + ")"};
    const bool diff = metric.kind == AttributionMetricKind::logit_diff;
    for (int id : diff ? std::vector<int>{metric.token, metric.other} : std::vector<int>{metric.token})
        if (id < 0 || id >= V)
            return Error{"token id " + std::to_string(id) + " is not in the vocabulary (ids 0 to " +
                         std::to_string(V - 1) + ")"};
    const float* row = logits->data.data() + q * V;
    if (metric.kind == AttributionMetricKind::prob) {  // exp(logit_A − log Σ_v exp(logit_v)), in double
        const double max = *std::max_element(row, row + V);
        double sum = 0.0;
        for (int64_t v = 0; v < V; ++v) sum += std::exp(static_cast<double>(row[v]) - max);
        const double lse = max + std::log(sum);  // as backward/loss.cpp takes it
        return std::exp(static_cast<double>(row[metric.token]) - lse);
    }
    return static_cast<double>(row[metric.token]) - (diff ? static_cast<double>(row[metric.other]) : 0.0);
}

double PatchGrid::normalised(int64_t r, int64_t c) const {
    if (clean == corrupt) return std::numeric_limits<double>::quiet_NaN();
    return (at(r, c) - corrupt) / (clean - corrupt);
}

std::vector<Tensor> clean_pieces(const Stepper& clean, const std::vector<size_t>& steps) {
    std::vector<Tensor> out;
    for (size_t i : steps) {
        const Tensor* t = clean.output(clean.step(i).path);
        out.push_back(t ? *t : Tensor());
    }
    return out;
}

namespace {

// What both grids start from: the piece's steps (one a row of the grid), the metric on the corrupted run, and that
// run's own outputs of those steps.
struct GridStart {
    std::vector<size_t> steps;
    double corrupt = 0.0;
    std::vector<const Tensor*> now;
};

Result<GridStart> grid_start(const Stepper& corrupted, PatchPiece piece, const std::vector<Tensor>& clean,
                             const AttributionMetric& metric) {
    auto steps = patch_steps(corrupted, piece);
    if (!steps) return steps.error();
    auto corrupt = metric_value(corrupted, metric);
    if (!corrupt) return corrupt.error();
    auto now = corrupted_pieces(corrupted, *steps, clean);
    if (!now) return now.error();
    if (steps->empty()) return Error{"the model has no layers to patch"};
    return GridStart{std::move(*steps), *corrupt, std::move(*now)};
}

}  // namespace

Result<PatchGrid> patch_grid(Stepper& corrupted, PatchPiece piece, const std::vector<Tensor>& clean,
                             const AttributionMetric& metric, double clean_value, Stepper::PatchRerun rerun,
                             const GridProgress& progress) {
    auto start = grid_start(corrupted, piece, clean, metric);
    if (!start) return start.error();
    const std::vector<size_t>& steps = start->steps;
    const double corrupt = start->corrupt;
    const std::vector<const Tensor*>& now = start->now;
    PatchGrid g = empty_grid(piece, clean[0], static_cast<int64_t>(steps.size()), clean_value, corrupt);
    const bool heads = by_head(piece);
    for (int64_t l = 0; l < g.rows; ++l) {
        const Tensor& from = clean[static_cast<size_t>(l)];
        const int64_t per_cell = from.numel() / g.cols;  // a row (·,), or a head's (N, D)
        for (int64_t c = 0; c < g.cols; ++c) {
            // A cell whose clean values are the corrupted run's own bits changes nothing: the metric stays.
            const float* own = now[static_cast<size_t>(l)]->data.data() + c * per_cell;
            if (std::equal(own, own + per_cell, from.data.data() + c * per_cell,
                           [](float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; })) {
                g.values[static_cast<size_t>(l * g.cols + c)] = corrupt;
                if (progress && !progress(l * g.cols + c + 1, g.rows * g.cols)) return Error{kGridStopped};
                continue;
            }
            Stepper::OutputPatch patch{steps[static_cast<size_t>(l)], heads ? 0 : c, heads ? static_cast<int>(c) : -1,
                                       heads ? head_slice(from, c) : one_row(from, c)};
            if (auto st = corrupted.patch_output(patch, rerun); !st) return st.error();
            auto value = metric_value(corrupted, metric);
            corrupted.undo_patch();
            if (!value) return value.error();
            g.values[static_cast<size_t>(l * g.cols + c)] = *value;
            if (progress && !progress(l * g.cols + c + 1, g.rows * g.cols)) return Error{kGridStopped};
        }
    }
    return g;
}

Result<PatchGrid> patch_grid_gradient(const Stepper& corrupted, PatchPiece piece, const std::vector<Tensor>& clean,
                                      const AttributionMetric& metric, double clean_value) {
    auto start = grid_start(corrupted, piece, clean, metric);
    if (!start) return start.error();
    const std::vector<size_t>& steps = start->steps;
    const double corrupt = start->corrupt;
    const std::vector<const Tensor*>& now = start->now;
    const LossKind kind = metric.kind == AttributionMetricKind::logit  ? LossKind::logit
                          : metric.kind == AttributionMetricKind::prob ? LossKind::prob
                                                                       : LossKind::logit_diff;
    const LossSpec loss{kind, metric.token, metric.other, metric.position};
    auto backward = BackwardPass::create(corrupted, loss);
    if (!backward) return backward.error();
    backward->run_all(corrupted);
    PatchGrid g = empty_grid(piece, clean[0], static_cast<int64_t>(steps.size()), clean_value, corrupt);
    for (int64_t l = 0; l < g.rows; ++l) {
        const Tensor& a = clean[static_cast<size_t>(l)];
        const Tensor& b = *now[static_cast<size_t>(l)];
        const TraceEntry* grad = backward->gradient(steps[static_cast<size_t>(l)]);
        const int64_t per_cell = a.numel() / g.cols;  // a row (·,), or a head's (N, D)
        for (int64_t c = 0; c < g.cols; ++c) {
            double sum = 0.0;
            if (grad && !grad->value.data.empty())
                for (int64_t k = c * per_cell; k < (c + 1) * per_cell; ++k) {
                    const size_t i = static_cast<size_t>(k);
                    sum += (static_cast<double>(a.data[i]) - b.data[i]) * grad->value.data[i];
                }
            g.values[static_cast<size_t>(l * g.cols + c)] = corrupt + sum;
        }
    }
    return g;
}

double grid_correlation(const PatchGrid& a, const PatchGrid& b) {
    const size_t n = std::min(a.values.size(), b.values.size());
    if (n == 0) return std::numeric_limits<double>::quiet_NaN();
    double ma = 0, mb = 0;
    for (size_t i = 0; i < n; ++i) ma += a.values[i], mb += b.values[i];
    ma /= static_cast<double>(n);
    mb /= static_cast<double>(n);
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < n; ++i) {
        const double x = a.values[i] - ma, y = b.values[i] - mb;
        sab += x * y, saa += x * x, sbb += y * y;
    }
    if (saa == 0 || sbb == 0) return std::numeric_limits<double>::quiet_NaN();
    return sab / std::sqrt(saa * sbb);
}

}  // namespace attnlab
