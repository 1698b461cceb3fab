// The stages of multi-head scaled dot-product attention.
#include "ops/attention.h"

#include "bit_cast.h"
#include "ops/gemm.h"
#include "ops/lane_sum.h"
#include "ops/non_finite.h"
#include "parallel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace attnlab {

namespace {

// Heads are split between the threads when a product has at least this many multiply-adds (GPT-2 small's QKᵀ on
// 64 tokens: 3.1M); a small model's heads stay on one thread, where starting another costs more than it saves.
constexpr int64_t kSplitHeadsMultiplyAdds = int64_t{1} << 21;

// body(h, first_row, end_row) over every query row of every head, the (H·T) rows claimed by the threads in pieces
// of whole micro-kernel tiles (ops/gemm.h, parallel_claim), so that 9 heads on 2 threads do not leave one idle for a
// head, nor the causal rows' uneven cost one thread waiting; a piece may begin or end inside a head. A row's outputs
// are the same whichever piece computes it.
void for_each_head_rows(int64_t heads, int64_t rows, int64_t multiply_adds,
                        const std::function<void(int64_t, int64_t, int64_t)>& body) {
    const int64_t all = heads * rows;
    const auto run = [&](int64_t begin, int64_t end) {
        for (int64_t h = begin / rows; h * rows < end; ++h)
            body(h, std::max(begin - h * rows, int64_t{0}), std::min(end - h * rows, rows));
    };
    if (multiply_adds >= kSplitHeadsMultiplyAdds)
        parallel_claim(0, all, kGemmRows, run);
    else if (all > 0)
        run(0, all);
}

// out = scores / √D, entry by entry, split by rows of all the heads (so that 9 heads on 2 threads do not leave one
// idle for a head); out may be scores itself.
void scale_into(const Tensor& scores, float d_head, Tensor& out) {
    assert(out.shape == scores.shape);
    const float inv = 1.0f / std::sqrt(d_head);
    const int64_t width = scores.rank() > 0 ? scores.dim(-1) : 1, rows = width > 0 ? scores.numel() / width : 0;
    parallel_rows(rows, width, [&](int64_t first, int64_t end) {
        const float* in = scores.data.data();
        float* o = out.data.data();
        for (int64_t i = first * width; i < end * width; ++i) o[i] = in[i] * inv;
    });
}

// The row of mask (B·Tq, Tk) that row r of the (B·H·Tq) query rows of scores (B·H, Tq, Tk) reads: query r mod Tq
// of sequence b = head / H. One sequence (B = 1): row r mod Tq, every head sharing the mask.
struct MaskRows {
    int64_t Tq, heads_per_sequence;
    MaskRows(const Tensor& scores, const Tensor& mask)
        : Tq(scores.dim(1)), heads_per_sequence(scores.dim(0) / (mask.dim(0) / scores.dim(1))) {
        assert(scores.rank() == 3 && mask.rank() == 2 && mask.dim(0) % Tq == 0 && mask.dim(1) == scores.dim(2));
        assert(scores.dim(0) % (mask.dim(0) / Tq) == 0);
    }
    int64_t of(int64_t r) const { return (r / Tq / heads_per_sequence) * Tq + r % Tq; }
};

// out = scaled with −∞ where the mask is 0, split by rows of all the heads; out may be scaled itself.
void mask_into(const Tensor& scaled, const Tensor& mask, Tensor& out) {
    assert(out.shape == scaled.shape);
    const MaskRows rows(scaled, mask);
    const int64_t Tk = scaled.dim(2);
    parallel_rows(scaled.dim(0) * rows.Tq, Tk, [&, Tk](int64_t first, int64_t end) {
        // Copies in locals: a store to o[] could otherwise change a float read by reference, and the loop would
        // not vectorise.
        constexpr float kMinusInf = -std::numeric_limits<float>::infinity();
        for (int64_t r = first; r < end; ++r) {
            const float* m = mask.data.data() + rows.of(r) * Tk;
            const float* in = scaled.data.data() + r * Tk;
            float* o = out.data.data() + r * Tk;
            for (int64_t j = 0; j < Tk; ++j) o[j] = m[j] == 0.0f ? kMinusInf : in[j];
        }
    });
}

}  // namespace

Tensor split_heads(const Tensor& x, int64_t n_heads, int64_t batch) {
    assert(x.rank() == 2 && x.dim(1) % n_heads == 0 && x.dim(0) % batch == 0);
    const int64_t T = x.dim(0) / batch, C = x.dim(1), D = C / n_heads;
    Tensor out = Tensor::uninitialized({batch * n_heads, T, D});  // every head written whole
    parallel_rows(batch * T, C, [&](int64_t first, int64_t end) {
        for (int64_t row = first; row < end; ++row) {
            const int64_t b = row / T, t = row % T;
            for (int64_t h = 0; h < n_heads; ++h)
                std::copy_n(x.data.data() + row * C + h * D, D, out.data.data() + ((b * n_heads + h) * T + t) * D);
        }
    });
    return out;
}

Tensor merge_heads(const Tensor& x, int64_t batch) {
    assert(x.rank() == 3 && x.dim(0) % batch == 0);
    const int64_t H = x.dim(0) / batch, T = x.dim(1), D = x.dim(2);
    Tensor out = Tensor::uninitialized({batch * T, H * D});  // every head's columns written whole
    parallel_rows(batch * T, H * D, [&](int64_t first, int64_t end) {
        for (int64_t row = first; row < end; ++row) {
            const int64_t b = row / T, t = row % T;
            for (int64_t h = 0; h < H; ++h)
                std::copy_n(x.data.data() + ((b * H + h) * T + t) * D, D, out.data.data() + row * H * D + h * D);
        }
    });
    return out;
}

int64_t kv_head_of(int64_t query_head, int64_t n_heads, int64_t n_kv_heads) {
    assert(n_kv_heads > 0 && n_heads % n_kv_heads == 0);
    return query_head / (n_heads / n_kv_heads);
}

Tensor attention_scores(const Tensor& q, const Tensor& k) {
    assert(q.rank() == 3 && k.rank() == 3 && q.dim(0) % k.dim(0) == 0 && q.dim(2) == k.dim(2));
    const int64_t H = q.dim(0), Tq = q.dim(1), Tk = k.dim(1), D = q.dim(2);
    Tensor s = Tensor::uninitialized({H, Tq, Tk});  // every head overwritten by gemm
    for_each_head_rows(H, Tq, Tq * Tk * D, [&](int64_t h, int64_t first, int64_t end) {
        const int64_t g = kv_head_of(h, H, k.dim(0));
        gemm_out_in(q.slice(h).data() + first * D, end - first, D, D, k.slice(g).data(), D, Tk,
                    s.slice(h).data() + first * Tk, Tk);
    });
    return s;
}

Tensor largest_magnitude_by_row(const Tensor& x, int64_t from) {
    assert(x.rank() == 3 && from >= 0 && from <= x.dim(1));
    const int64_t H = x.dim(0), N = x.dim(1), D = x.dim(2);
    Tensor largest = Tensor::uninitialized({H, N - from});  // (H, N − from)
    constexpr uint32_t kInfinityBits = 0x7F800000u;
    for (int64_t h = 0; h < H; ++h)
        for (int64_t r = from; r < N; ++r) {
            // One pass over the bits of |entry|, which vectorises: non-negative floats order as their bits do, and
            // ∞ and every NaN lie above the finite ones.
            const float* row = x.data.data() + (h * N + r) * D;
            uint32_t bits = 0;
            for (int64_t i = 0; i < D; ++i) bits = std::max(bits, bit_cast<uint32_t>(row[i]) & 0x7FFFFFFFu);
            largest.data[static_cast<size_t>(h * (N - from) + r - from)] =
                bits >= kInfinityBits ? std::numeric_limits<float>::infinity() : bit_cast<float>(bits);
        }
    return largest;
}

bool scores_cannot_overflow(const Tensor& q_largest, const Tensor& k_largest, int64_t d_head) {
    assert(q_largest.rank() == 2 && k_largest.rank() == 2 && q_largest.dim(0) % k_largest.dim(0) == 0);
    const double limit = 0.5 * static_cast<double>(std::numeric_limits<float>::max());
    auto head_largest = [](const Tensor& rows, int64_t h) {  // 0 for a head of no rows
        const int64_t n = rows.dim(1);
        return static_cast<double>(std::max(0.0f, lane_max(rows.data.data() + h * n, n)));
    };
    const int64_t H = q_largest.dim(0), H_kv = k_largest.dim(0);
    std::vector<double> k_head(static_cast<size_t>(H_kv));  // (H_kv,)
    for (int64_t g = 0; g < H_kv; ++g) k_head[static_cast<size_t>(g)] = head_largest(k_largest, g);
    for (int64_t h = 0; h < H; ++h) {
        const double bound = static_cast<double>(d_head) * head_largest(q_largest, h) *
                             k_head[static_cast<size_t>(kv_head_of(h, H, H_kv))];
        if (!(bound <= limit)) return false;
    }
    return true;
}

bool scores_cannot_overflow(const Tensor& q, const Tensor& k) {
    assert(q.rank() == 3 && k.rank() == 3 && q.dim(2) == k.dim(2));
    return scores_cannot_overflow(largest_magnitude_by_row(q, 0), largest_magnitude_by_row(k, 0), q.dim(2));
}

Tensor scale_scores(const Tensor& scores, float d_head) {
    Tensor out = Tensor::uninitialized(scores.shape);
    scale_into(scores, d_head, out);
    return out;
}

void scale_scores_in_place(Tensor& scores, float d_head) { scale_into(scores, d_head, scores); }

Tensor mask_scores(const Tensor& scaled, const Tensor& mask) {
    Tensor out = Tensor::uninitialized(scaled.shape);
    mask_into(scaled, mask, out);
    return out;
}

void mask_scores_in_place(Tensor& scaled, const Tensor& mask) { mask_into(scaled, mask, scaled); }

namespace {

// Keys [0, result) hold every nonzero weight of rows [first, end) of one head's weights (Tq, Tk), rows Tk apart.
int64_t keys_in_use(const float* weights, int64_t Tk, int64_t first, int64_t end) {
    int64_t used = 0;
    for (int64_t r = first; r < end; ++r) used = std::max(used, length_before_run_of(weights + r * Tk, Tk, 0.0f));
    return used;
}

}  // namespace

// A causal row's weights are exactly 0 past its own position, so each tile of kGemmRows query rows multiplies only
// the keys up to its last nonzero weight (gemm_in_out_to_depth): about half the products of a causal pass, with the
// same bits. When a head of V holds a NaN or ±∞ nothing is left out, so 0 · NaN makes the NaN PyTorch's product makes.
Tensor attention_context(const Tensor& weights, const Tensor& v, const std::set<int>& ablated, int64_t batch) {
    assert(weights.rank() == 3 && v.rank() == 3 && weights.dim(0) % v.dim(0) == 0 && weights.dim(2) == v.dim(1));
    const int64_t H = weights.dim(0), Tq = weights.dim(1), Tk = weights.dim(2), D = v.dim(2);
    const int64_t heads_per_sequence = H / batch;
    std::vector<char> v_finite(static_cast<size_t>(v.dim(0)));  // (H_kv,)
    for (int64_t g = 0; g < v.dim(0); ++g)
        v_finite[static_cast<size_t>(g)] = count_non_finite(v.slice(g).data(), static_cast<size_t>(Tk * D)) == 0;
    Tensor ctx = Tensor::uninitialized({H, Tq, D});  // every row written below
    for_each_head_rows(H, Tq, Tq * Tk * D, [&](int64_t h, int64_t first, int64_t end) {
        float* out = ctx.slice(h).data();
        if (ablated.count(static_cast<int>(h % heads_per_sequence))) {  // an ablated head contributes nothing
            std::fill(out + first * D, out + end * D, 0.0f);
            return;
        }
        const int64_t g = kv_head_of(h, H, v.dim(0));
        const float* w = weights.slice(h).data();
        std::vector<int64_t> keys;  // (tiles,): the keys each tile of kGemmRows query rows, from `first`, multiplies
        for (int64_t r = first; r < end; r += kGemmRows)
            keys.push_back(v_finite[static_cast<size_t>(g)] ? keys_in_use(w, Tk, r, std::min(r + kGemmRows, end)) : Tk);
        gemm_in_out_to_depth(w + first * Tk, end - first, Tk, Tk, v.slice(g).data(), D, D, out + first * D, D,
                             keys.data());
    });
    return ctx;
}

namespace {

// body(g) for every K/V head g of H_kv, the groups claimed by the threads one at a time when the products have at
// least kSplitHeadsMultiplyAdds multiply-adds: the query heads of a group add into the same K/V gradient, so a group
// runs on one thread, its heads in order, and each gradient's bits are the same however the groups are split.
void for_each_kv_group(int64_t groups, int64_t multiply_adds, const std::function<void(int64_t)>& body) {
    const auto run = [&](int64_t begin, int64_t end) {
        for (int64_t g = begin; g < end; ++g) body(g);
    };
    if (multiply_adds >= kSplitHeadsMultiplyAdds)
        parallel_claim(0, groups, 1, run);
    else
        run(0, groups);
}

// sum (rows, cols) (+)= aᵀ·b for a (K, rows), b (K, cols): a turned into `turned` (rows, K), then gemm; the first
// part of a sum is written, the later ones added from `part` (rows, cols).
void add_transposed_product(const float* a, int64_t K, int64_t rows, const float* b, int64_t cols, bool first,
                            std::vector<float>& turned, std::vector<float>& part, float* sum) {
    turned.resize(static_cast<size_t>(rows * K));
    transpose(a, K, rows, rows, turned.data(), K);
    if (first) {
        gemm_in_out(turned.data(), rows, K, K, b, cols, cols, sum, cols);
        return;
    }
    part.resize(static_cast<size_t>(rows * cols));
    gemm_in_out(turned.data(), rows, K, K, b, cols, cols, part.data(), cols);
    for (int64_t i = 0; i < rows * cols; ++i) sum[i] += part[static_cast<size_t>(i)];
}

}  // namespace

// dQ[h] = dS[h]·K[g] and dK[g] = Σ over g's query heads dS[h]ᵀ·Q[h], by gemm, the K/V groups split between the
// threads. A causal row of dS is 0 past its own key (the mask's backward writes 0 there), so dQ's tiles multiply
// only up to their last nonzero key, as the forward's weights·V does (the same bits; all of them if K holds a NaN).
ScoresGrads attention_scores_backward(const Tensor& q, const Tensor& k, const Tensor& d_scores) {
    assert(q.rank() == 3 && k.rank() == 3 && d_scores.rank() == 3 && d_scores.dim(0) == q.dim(0));
    const int64_t H = q.dim(0), H_kv = k.dim(0), Tq = q.dim(1), Tk = k.dim(1), D = q.dim(2);
    ScoresGrads g{Tensor::uninitialized({H, Tq, D}), Tensor::uninitialized(k.shape)};  // every head written below
    for_each_kv_group(H_kv, 2 * H * Tq * Tk * D, [&](int64_t kv) {
        const float* kh = k.slice(kv).data();
        const bool k_finite = count_non_finite(kh, static_cast<size_t>(Tk * D)) == 0;
        std::vector<float> turned, part;  // (Tk, Tq), (Tk, D)
        bool first = true;
        for (int64_t h = 0; h < H; ++h) {
            if (kv_head_of(h, H, H_kv) != kv) continue;
            const float* ds = d_scores.slice(h).data();
            std::vector<int64_t> keys;  // (tiles,): the keys each tile of kGemmRows query rows multiplies
            for (int64_t r = 0; r < Tq; r += kGemmRows)
                keys.push_back(k_finite ? keys_in_use(ds, Tk, r, std::min(r + kGemmRows, Tq)) : Tk);
            gemm_in_out_to_depth(ds, Tq, Tk, Tk, kh, D, D, g.dq.slice(h).data(), D, keys.data());
            add_transposed_product(ds, Tq, Tk, q.slice(h).data(), D, first, turned, part, g.dk.slice(kv).data());
            first = false;
        }
    });
    return g;
}

Tensor mask_scores_backward(const Tensor& d_masked, const Tensor& mask) {
    const MaskRows rows(d_masked, mask);
    const int64_t Tk = d_masked.dim(2);
    Tensor d = Tensor::uninitialized(d_masked.shape);  // every entry written below
    parallel_rows(d_masked.dim(0) * rows.Tq, Tk, [&, Tk](int64_t first, int64_t end) {
        for (int64_t r = first; r < end; ++r) {
            const float* m = mask.data.data() + rows.of(r) * Tk;
            const float* in = d_masked.data.data() + r * Tk;
            float* out = d.data.data() + r * Tk;
            for (int64_t j = 0; j < Tk; ++j) out[j] = m[j] != 0.0f ? in[j] : 0.0f;
        }
    });
    return d;
}

// d(weights)[h] = dC[h]·V[g]ᵀ and dV[g] = Σ over g's query heads weights[h]ᵀ·dC[h], by gemm, the K/V groups split
// between the threads; an ablated head's d(weights) is 0 and it adds nothing to dV.
ContextGrads attention_context_backward(const Tensor& weights, const Tensor& v, const Tensor& d_context,
                                        const std::set<int>& ablated, int64_t batch) {
    assert(weights.rank() == 3 && v.rank() == 3 && d_context.rank() == 3 && d_context.dim(0) == weights.dim(0));
    const int64_t H = weights.dim(0), H_kv = v.dim(0), Tq = weights.dim(1), Tk = weights.dim(2), D = v.dim(2);
    const int64_t heads_per_sequence = H / batch;
    ContextGrads g{Tensor::uninitialized(weights.shape), Tensor::uninitialized(v.shape)};  // every head written below
    for_each_kv_group(H_kv, 2 * H * Tq * Tk * D, [&](int64_t kv) {
        std::vector<float> turned, part;  // (Tk, Tq), (Tk, D)
        bool first = true;
        for (int64_t h = 0; h < H; ++h) {
            if (kv_head_of(h, H, H_kv) != kv) continue;
            float* dw = g.d_weights.slice(h).data();
            if (ablated.count(static_cast<int>(h % heads_per_sequence))) {
                std::fill_n(dw, Tq * Tk, 0.0f);
                continue;
            }
            const float* dc = d_context.slice(h).data();
            gemm_out_in(dc, Tq, D, D, v.slice(kv).data(), D, Tk, dw, Tk);
            add_transposed_product(weights.slice(h).data(), Tq, Tk, dc, D, first, turned, part, g.dv.slice(kv).data());
            first = false;
        }
        if (first) std::fill_n(g.dv.slice(kv).data(), Tk * D, 0.0f);  // every head of the group ablated
    });
    return g;
}

}  // namespace attnlab
