#include "train/attention_overlap.h"

#include <cassert>

namespace attnlab {

namespace {

ConstMatMap head_of(const Tensor& weights, int64_t head) {  // (Tq, Tk)
    return ConstMatMap(weights.slice(head).data(), weights.dim(1), weights.dim(2));
}

}  // namespace

AttentionOverlap attention_overlap(const Tensor& weights, int64_t batch, const std::set<int>& ablated_heads) {
    assert(weights.rank() == 3 && weights.dim(0) % batch == 0);
    const int64_t H = weights.dim(0) / batch, Tq = weights.dim(1), Tk = weights.dim(2);
    AttentionOverlap out;
    Mat sum(Tq, Tk);  // (Tq, Tk): Σ_h p_h of one sequence
    for (int64_t b = 0; b < batch; ++b) {
        sum.setZero();
        double squares = 0;  // Σ_h |p_h|² = Σ_h Σ_i |p_h[i]|²
        int64_t heads = 0;
        for (int64_t h = 0; h < H; ++h) {
            if (ablated_heads.count(static_cast<int>(h))) continue;
            const ConstMatMap p = head_of(weights, b * H + h);
            sum += p;
            squares += p.squaredNorm();
            // Σ_{i<i'} p[i]·p[i'] = (|Σ_i p[i]|² − Σ_i |p[i]|²) / 2
            out.across_queries += (p.colwise().sum().squaredNorm() - p.squaredNorm()) / 2.0;
            ++heads;
        }
        // Σ_i Σ_{h<h'} p_h[i]·p_h'[i] = (|Σ_h p_h|² − Σ_h |p_h|²) / 2
        out.across_heads += (sum.squaredNorm() - squares) / 2.0;
        int64_t rows = 0;
        for (int64_t i = 0; i < Tq; ++i) rows += sum.row(i).sum() > 0.0f;
        out.rows += rows;
        out.row_pairs += heads * rows * (rows - 1) / 2;
    }
    return out;
}

OverlapPenalty overlap_penalty(const Tensor& weights, int64_t batch, const std::set<int>& ablated_heads,
                               float head_weight, float query_weight) {
    const AttentionOverlap o = attention_overlap(weights, batch, ablated_heads);
    const float heads = o.rows > 0 ? head_weight / static_cast<float>(o.rows) : 0.0f;
    const float queries = o.row_pairs > 0 ? query_weight / static_cast<float>(o.row_pairs) : 0.0f;
    OverlapPenalty out{heads * o.across_heads + queries * o.across_queries, Tensor(weights.shape)};
    const int64_t H = weights.dim(0) / batch, Tq = weights.dim(1), Tk = weights.dim(2);
    Mat heads_sum(Tq, Tk);  // Σ_h p_h of one sequence
    for (int64_t b = 0; b < batch; ++b) {
        heads_sum.setZero();
        for (int64_t h = 0; h < H; ++h)
            if (!ablated_heads.count(static_cast<int>(h))) heads_sum += head_of(weights, b * H + h);
        for (int64_t h = 0; h < H; ++h) {
            if (ablated_heads.count(static_cast<int>(h))) continue;
            const ConstMatMap p = head_of(weights, b * H + h);
            MatMap d(out.d_weights.slice(b * H + h).data(), Tq, Tk);
            // heads · Σ_{h'≠h} p_h'[i] + queries · Σ_{i'≠i} p[i'] (= Σ_i p[i] − p[i])
            d.noalias() = heads * (heads_sum - p);
            d.rowwise() += queries * p.colwise().sum();
            d.noalias() -= queries * p;
        }
    }
    return out;
}

}  // namespace attnlab
