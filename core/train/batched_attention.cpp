// Batched multi-head attention: per pair and head, scores, mask, softmax and context; backward through each.
#include "train/batched_attention.h"

#include "ops/linear.h"
#include "train/grad_ops.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

bool key_visible(const KeyVisibility& vis, int b, int Tk, int i, int j) {
    if ((*vis.key_ids)[static_cast<size_t>(b * Tk + j)] == vis.pad_id) return false;
    return !vis.causal || j <= i;
}

void add_into(Tensor& into, const Tensor& x) {
    assert(into.shape == x.shape);
    into.matrix() += x.matrix();
}

}  // namespace

Tensor batched_attention_forward(const Weights& weights, const std::string& params, const AttentionShape& shape,
                                 const Tensor& xq, const Tensor* xkv, const KeyVisibility& visibility,
                                 const std::set<int>& ablated_heads, AttentionCache& cache) {
    const int B = shape.B, Tq = shape.Tq, Tk = shape.Tk, H = shape.n_heads;
    const Tensor& w_in = weights.at(params + ".in_proj_weight");  // (3C, C)
    const Tensor& b_in = weights.at(params + ".in_proj_bias");    // (3C)
    const int64_t C = w_in.dim(1), D = C / H;
    const Tensor& keys_from = xkv ? *xkv : xq;
    assert(xq.dim(0) == int64_t{B} * Tq && keys_from.dim(0) == int64_t{B} * Tk && xq.dim(1) == C);
    assert(visibility.key_ids && visibility.key_ids->size() == static_cast<size_t>(B * Tk));

    cache.xq = xq;
    cache.xkv = xkv ? *xkv : Tensor();
    cache.q = linear_forward(xq, w_in, &b_in, 0, C);             // (B·Tq, C)
    cache.k = linear_forward(keys_from, w_in, &b_in, C, C);      // (B·Tk, C)
    cache.v = linear_forward(keys_from, w_in, &b_in, 2 * C, C);  // (B·Tk, C)
    cache.weights = Tensor({B, H, Tq, Tk});
    cache.concat = Tensor({int64_t{B} * Tq, C});

    const float sqrt_d = std::sqrt(static_cast<float>(D));
    const float neg_inf = -std::numeric_limits<float>::infinity();
    Mat scores(Tq, Tk);  // (Tq, Tk)
    for (int b = 0; b < B; ++b) {
        for (int h = 0; h < H; ++h) {
            MatMap p(cache.weights.data.data() + (int64_t{b} * H + h) * Tq * Tk, Tq, Tk);  // (Tq, Tk)
            scores.noalias() = cache.q.matrix().block(int64_t{b} * Tq, h * D, Tq, D) *
                               cache.k.matrix().block(int64_t{b} * Tk, h * D, Tk, D).transpose();
            for (int i = 0; i < Tq; ++i) {
                float max = neg_inf;
                for (int j = 0; j < Tk; ++j) {
                    scores(i, j) = key_visible(visibility, b, Tk, i, j) ? scores(i, j) / sqrt_d : neg_inf;
                    max = std::max(max, scores(i, j));
                }
                if (max == neg_inf) {  // every key hidden: a zero row, as softmax_rows gives
                    p.row(i).setZero();
                    continue;
                }
                p.row(i) = (scores.row(i).array() - max).exp().matrix();
                p.row(i) /= p.row(i).sum();
            }
            // An ablated head keeps its weights (the views show them); only its context stays zero.
            if (ablated_heads.count(h)) continue;
            cache.concat.matrix().block(int64_t{b} * Tq, h * D, Tq, D).noalias() =
                p * cache.v.matrix().block(int64_t{b} * Tk, h * D, Tk, D);
        }
    }
    return linear_forward(cache.concat, weights.at(params + ".out_proj.weight"),
                          &weights.at(params + ".out_proj.bias"));  // (B·Tq, C)
}

AttentionOverlap attention_overlap(const AttentionCache& cache, const AttentionShape& shape,
                                   const std::set<int>& ablated_heads) {
    const int B = shape.B, Tq = shape.Tq, Tk = shape.Tk, H = shape.n_heads;
    AttentionOverlap out;
    Mat sum(Tq, Tk);  // (Tq, Tk): Σ_h p_h of one pair
    for (int b = 0; b < B; ++b) {
        sum.setZero();
        double squares = 0;  // Σ_h |p_h|² = Σ_h Σ_i |p_h[i]|²
        int64_t heads = 0;
        for (int h = 0; h < H; ++h) {
            if (ablated_heads.count(h)) continue;
            ConstMatMap p(cache.weights.data.data() + (int64_t{b} * H + h) * Tq * Tk, Tq, Tk);  // (Tq, Tk)
            sum += p;
            squares += p.squaredNorm();
            // Σ_{i<i'} p[i]·p[i'] = (|Σ_i p[i]|² − Σ_i |p[i]|²) / 2
            out.across_queries += (p.colwise().sum().squaredNorm() - p.squaredNorm()) / 2.0;
            ++heads;
        }
        // Σ_i Σ_{h<h'} p_h[i]·p_h'[i] = (|Σ_h p_h|² − Σ_h |p_h|²) / 2
        out.across_heads += (sum.squaredNorm() - squares) / 2.0;
        int64_t rows = 0;
        for (int i = 0; i < Tq; ++i) rows += sum.row(i).sum() > 0.0f;
        out.rows += rows;
        out.row_pairs += heads * rows * (rows - 1) / 2;
    }
    return out;
}

Tensor batched_attention_backward(const Weights& weights, const std::string& params, const AttentionShape& shape,
                                  const AttentionCache& cache, const std::set<int>& ablated_heads, const Tensor& dout,
                                  Tensor* dxkv, Gradients& grads, OverlapScales overlap) {
    const int B = shape.B, Tq = shape.Tq, Tk = shape.Tk, H = shape.n_heads;
    const std::string w_in_name = params + ".in_proj_weight", b_in_name = params + ".in_proj_bias";
    const std::string w_out_name = params + ".out_proj.weight", b_out_name = params + ".out_proj.bias";
    const Tensor& w_in = weights.at(w_in_name);  // (3C, C)
    const int64_t C = w_in.dim(1), D = C / H;
    const bool self_attention = cache.xkv.empty();
    assert(self_attention == (dxkv == nullptr));

    const Tensor dconcat = linear_backward(cache.concat, weights.at(w_out_name), dout, &grads.at(w_out_name),
                                           &grads.at(b_out_name));  // (B·Tq, C)
    Tensor dq({int64_t{B} * Tq, C}), dk({int64_t{B} * Tk, C}), dv({int64_t{B} * Tk, C});
    const auto head = [&](int b, int h) {
        return ConstMatMap(cache.weights.data.data() + (int64_t{b} * H + h) * Tq * Tk, Tq, Tk);  // (Tq, Tk)
    };
    Mat heads_sum(Tq, Tk), dweights(Tq, Tk);  // (Tq, Tk): Σ_h p_h of one pair; the penalty's gradient on one head
    for (int b = 0; b < B; ++b) {
        if (overlap.any()) {
            heads_sum.setZero();
            for (int h = 0; h < H; ++h)
                if (!ablated_heads.count(h)) heads_sum += head(b, h);
        }
        for (int h = 0; h < H; ++h) {
            if (ablated_heads.count(h)) continue;  // its context was forced to zero: no gradient flows
            const ConstMatMap p = head(b, h);
            if (overlap.any()) {
                const RowVec column_sums = p.colwise().sum();          // (Tk): Σ_i p[i]
                dweights.noalias() = overlap.heads * (heads_sum - p);  // Σ_{h'≠h} p_h'[i]
                dweights.rowwise() += overlap.queries * column_sums;   // Σ_{i'≠i} p[i'] = Σ_i p[i] − p[i]
                dweights.noalias() -= overlap.queries * p;
            }
            const AttentionHeadGrads g = attention_head_backward(
                cache.q.matrix().block(int64_t{b} * Tq, h * D, Tq, D),
                cache.k.matrix().block(int64_t{b} * Tk, h * D, Tk, D),
                cache.v.matrix().block(int64_t{b} * Tk, h * D, Tk, D), p,
                dconcat.matrix().block(int64_t{b} * Tq, h * D, Tq, D), overlap.any() ? &dweights : nullptr);
            dq.matrix().block(int64_t{b} * Tq, h * D, Tq, D) = g.dq;
            dk.matrix().block(int64_t{b} * Tk, h * D, Tk, D) = g.dk;
            dv.matrix().block(int64_t{b} * Tk, h * D, Tk, D) = g.dv;
        }
    }
    Tensor& dw_in = grads.at(w_in_name);
    Tensor& db_in = grads.at(b_in_name);
    Tensor dxq = linear_backward(cache.xq, w_in, dq, &dw_in, &db_in, 0);  // (B·Tq, C)
    const Tensor& keys_from = self_attention ? cache.xq : cache.xkv;
    Tensor dkeys = linear_backward(keys_from, w_in, dk, &dw_in, &db_in, C);  // (B·Tk, C)
    add_into(dkeys, linear_backward(keys_from, w_in, dv, &dw_in, &db_in, 2 * C));
    if (self_attention) {
        add_into(dxq, dkeys);
    } else {
        add_into(*dxkv, dkeys);
    }
    return dxq;
}

}  // namespace attnlab
