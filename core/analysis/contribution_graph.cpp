#include "analysis/contribution_graph.h"

#include "analysis/head_split.h"
#include "forward/mechanisms/stream_multipliers.h"
#include "forward/step_path.h"

#include <cmath>
#include <string>

namespace attnlab {

namespace {

using RowD = Eigen::RowVectorXd;  // (C,) in double

constexpr double kEps = 1e-5;          // the tool's EPS: the least proximity
constexpr double kDistanceEps = 1e-6;  // torch's pairwise_distance adds it to the difference

RowD row_of(const Tensor& t, int64_t r) { return t.row(r).cast<double>(); }

// max(ε, ‖whole‖₁ − ‖part − whole + 1e-6‖₁): the tool's distance is torch's pairwise_distance(p=1). `part` may be
// an expression (C,): no temporary.
template <class Part>
double proximity(const Part& part, const RowD& whole, double whole_norm) {
    return std::max(kEps, whole_norm - ((part - whole).array() + kDistanceEps).abs().sum());
}

// An attention block: the parts m·c[h, j] at each query t and the entering stream, normalised per t (m: the
// residual multiplier the add scales the sublayer's write by, 1 but in Granite).
Status attention_block(FlowBlock& block, const Stepper& stepper, const AttentionSite& site, const Tensor& r_in,
                       const Tensor& whole, double m) {
    auto split = head_split(stepper, site);
    if (!split) return split.error();
    const HeadSplit& s = *split;
    const int64_t T = whole.dim(0), H = s.H, Tk = s.Tk;
    if (s.Tq != T) return Error{s.name + ": its queries are not the stream's rows"};
    block.n_keys = Tk;
    block.heads.assign(static_cast<size_t>(T * H * Tk), 0.0);
    block.writes.assign(block.heads.size(), 0);
    block.residual.assign(static_cast<size_t>(T), 0.0);
    // Σ proximity, ‖whole‖₁ and a zero part's proximity, per query
    std::vector<double> sum(static_cast<size_t>(T)), norms(static_cast<size_t>(T)), zero(static_cast<size_t>(T));
    std::vector<RowD> wholes(static_cast<size_t>(T));
    for (int64_t t = 0; t < T; ++t) {
        const size_t i = static_cast<size_t>(t);
        wholes[i] = row_of(whole, t);
        norms[i] = wholes[i].lpNorm<1>();
        block.residual[i] = sum[i] = proximity(row_of(r_in, t), wholes[i], norms[i]);
        zero[i] = proximity(RowD::Zero(wholes[i].size()), wholes[i], norms[i]);
    }
    for (int64_t h = 0; h < H; ++h) {
        const auto p = s.source_outputs(h);  // (Tk, C)
        for (int64_t t = 0; t < T; ++t) {
            const size_t i = static_cast<size_t>(t);
            for (int64_t j = 0; j < Tk; ++j) {
                const double w = s.writes(h) ? s.weight(h, t, j) : 0.0;  // m·c[h, t, j] = m·w·P_h[j]
                const size_t at = static_cast<size_t>((t * H + h) * Tk + j);
                // A zero part (a masked key, a head off) is the same for every such key: once per query.
                block.heads[at] = w == 0.0 ? zero[i] : proximity((m * w) * p.row(j), wholes[i], norms[i]);
                block.writes[at] = w != 0.0;
                sum[i] += block.heads[at];
            }
        }
    }
    for (int64_t t = 0; t < T; ++t) {
        block.residual[static_cast<size_t>(t)] /= sum[static_cast<size_t>(t)];
        for (int64_t k = 0; k < H * Tk; ++k)
            block.heads[static_cast<size_t>(t * H * Tk + k)] /= sum[static_cast<size_t>(t)];
    }
    return ok_status();
}

// An FFN block: its output row times m (what the add writes) and the entering stream.
void ffn_block(FlowBlock& block, const Tensor& r_in, const Tensor& ffn, const Tensor& whole, double m) {
    const int64_t T = whole.dim(0);
    block.sublayer_share.resize(static_cast<size_t>(T));
    block.residual.resize(static_cast<size_t>(T));
    for (int64_t t = 0; t < T; ++t) {
        const RowD w = row_of(whole, t);
        const double norm = w.lpNorm<1>();
        const double f = proximity(m * row_of(ffn, t), w, norm), r = proximity(row_of(r_in, t), w, norm);
        block.sublayer_share[static_cast<size_t>(t)] = f / (f + r);
        block.residual[static_cast<size_t>(t)] = r / (f + r);
    }
}

}  // namespace

const char* to_string(FlowEdgeKind kind) {
    switch (kind) {
        case FlowEdgeKind::attention: return "attention";
        case FlowEdgeKind::cross_attention: return "cross_attention";
        case FlowEdgeKind::ffn: return "ffn";
        case FlowEdgeKind::residual: return "residual";
    }
    return "?";
}

Result<ContributionShares> contribution_shares(const Stepper& stepper, Stack stack) {
    if (stepper.inputs().batch != 1) return Error{"the contribution graph takes one sequence, not a batch"};
    ContributionShares out;
    out.stack = stack;
    out.n_heads = stepper.config().n_heads;
    const double m = StreamMultiplierMechanism(stepper.config()).residual_multiplier();
    for (size_t i = 0; i < stepper.size(); ++i) {
        const StepId& id = stepper.step(i).record.id;
        if (id.kind != StepKind::residual || id.stack != stack) continue;
        const Step& sub = stepper.step(stepper.input_indices(i).at(1));
        const Tensor* r_in = stepper.output(stepper.step(stepper.input_indices(i).at(0)).path);  // (T, C)
        const Tensor* part = stepper.output(sub.path);                                           // (T, C)
        const Tensor* whole = stepper.output(stepper.step(i).path);                              // (T, C)
        if (!r_in || !part || !whole)
            return Error{stepper.step(i).path + " has not been computed: run the forward pass first"};
        FlowBlock block;
        block.layer = id.layer;
        block.sublayer = id.sublayer;
        if (sub.record.id.kind == StepKind::attention) {
            block.kind = FlowBlockKind::attention;
            block.use = sub.record.id.use;
            if (auto st = attention_block(block, stepper, sub.record.id.site(), *r_in, *whole, m); !st)
                return st.error();
        } else if (sub.record.id.kind == StepKind::ffn) {
            block.kind = FlowBlockKind::ffn;
            ffn_block(block, *r_in, *part, *whole, m);
        } else {
            return Error{stepper.step(i).path + ": a residual add of neither an attention nor an FFN"};
        }
        out.n_positions = whole->dim(0);
        out.blocks.push_back(std::move(block));
    }
    if (out.blocks.empty())
        return Error{std::string("this model has no ") + (stack == Stack::encoder ? "encoder" : "decoder") + " layers"};
    return out;
}

Result<FlowRoute> flow_route(const ContributionShares& shares, int64_t token, double threshold) {
    if (token < 0 || token >= shares.n_positions)
        return Error{"position " + std::to_string(token) + " is past the end: the stream has " +
                     std::to_string(shares.n_positions) + " positions (0 to " + std::to_string(shares.n_positions - 1) +
                     ")"};
    if (!(threshold >= 0.0 && threshold <= 1.0))
        return Error{"the threshold must be between 0 and 1, not " + std::to_string(threshold)};
    FlowRoute route;
    route.token = static_cast<int>(token);
    route.threshold = threshold;
    const int64_t T = shares.n_positions, H = shares.n_heads;
    const auto kept = [&](double share) { return share > threshold ? share : 0.0; };
    std::vector<uint8_t> seen((shares.blocks.size() + 1) * static_cast<size_t>(T), 0);
    const auto visit = [&](int block, int position) {
        uint8_t& s = seen[static_cast<size_t>(block + 1) * static_cast<size_t>(T) + static_cast<size_t>(position)];
        if (s) return;
        s = 1;
        route.nodes.push_back({block, position});
    };
    visit(static_cast<int>(shares.blocks.size()) - 1, static_cast<int>(token));
    for (size_t n = 0; n < route.nodes.size(); ++n) {  // breadth first: each node's in-edges once
        const FlowNode node = route.nodes[n];
        if (node.block < 0) continue;
        const FlowBlock& b = shares.blocks[static_cast<size_t>(node.block)];
        const size_t t = static_cast<size_t>(node.position);
        // The tool's apply_threshold_and_renormalize: drop shares ≤ τ, divide the rest by their sum.
        double denom = kept(b.residual[t]);
        const size_t base = t * static_cast<size_t>(H * b.n_keys);
        if (b.kind == FlowBlockKind::attention)
            for (int64_t k = 0; k < H * b.n_keys; ++k) denom += kept(b.heads[base + static_cast<size_t>(k)]);
        else
            denom += kept(b.sublayer_share[t]);
        if (denom == 0.0) continue;
        const auto add = [&](FlowEdgeKind kind, int head, int from, double share) {
            route.edges.push_back({kind, node.block, b.layer, head, from, node.position, share / denom});
            if (kind != FlowEdgeKind::cross_attention) visit(node.block - 1, from);
        };
        if (kept(b.residual[t]) > 0.0) add(FlowEdgeKind::residual, -1, node.position, b.residual[t]);
        if (b.kind == FlowBlockKind::ffn) {
            if (kept(b.sublayer_share[t]) > 0.0) add(FlowEdgeKind::ffn, -1, node.position, b.sublayer_share[t]);
            continue;
        }
        const FlowEdgeKind kind =
            b.use == AttentionUse::cross ? FlowEdgeKind::cross_attention : FlowEdgeKind::attention;
        for (int64_t h = 0; h < H; ++h)
            for (int64_t j = 0; j < b.n_keys; ++j) {
                const size_t at = base + static_cast<size_t>(h * b.n_keys + j);
                if (b.writes[at] && kept(b.heads[at]) > 0.0)
                    add(kind, static_cast<int>(h), static_cast<int>(j), b.heads[at]);
            }
    }
    return route;
}

}  // namespace attnlab
