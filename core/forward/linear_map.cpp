// Linear maps read in their stored layout: no transposed copies of a mapped file's weights.
#include "forward/linear_map.h"

#include "ops/gemm.h"
#include "ops/linear.h"
#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <type_traits>

namespace attnlab {

namespace {

// Outputs [begin, begin + n) of the map's own range, into columns [begin, begin + n) of y; their NaN and ±∞ added
// to *non_finite when it is given.
void apply_range(const Tensor& w, const Tensor* b, const LinearParams& map, const Tensor& x, int64_t begin, int64_t n,
                 Tensor& y, int64_t* non_finite) {
    const int64_t first = map.out_begin + begin;
    OutputColumns out(y.data.data() + begin, y.dim(0), n, Eigen::OuterStride<>(y.dim(1)));
    if (map.layout == WeightLayout::out_in)
        linear_forward(x, w, b, first, n, out, non_finite);
    else
        linear_in_out_forward(x, w, b, first, n, out, non_finite);
}

}  // namespace

bool linear_map_splits(int64_t n_rows, int64_t n_in, int64_t n_out) {
    return n_rows * n_in * n_out >= kSplitMultiplyAdds || n_in * n_out >= kSplitWeightFloats;
}

namespace {

// y = the map of x, with the NaN and ±∞ entries of each piece counted into *non_finite when it is given.
Tensor apply_map(const Weights& weights, const LinearParams& map, const Tensor& x, std::atomic<int64_t>* non_finite) {
    const Tensor& w = weights.at(map.weight);
    assert(w.shape == map.weight_shape() && x.dim(-1) == map.n_in);
    const Tensor* b = map.bias.empty() ? nullptr : map.bias_optional ? weights.find(map.bias) : &weights.at(map.bias);
    Tensor y = Tensor::uninitialized({x.dim(0), map.n_out});  // (N, out), every column written by one range
    // Split into pieces of whole panels of the gemm (ops/gemm.h), claimed as the threads get to them, shrinking to one
    // panel at the end (parallel_claim), so that a thread the VM slows down does less: every output's bits are the
    // same however the columns are split, and whole panels keep each piece free of partial ones.
    const int64_t grain = linear_map_splits(x.dim(0), map.n_in, map.n_out) ? kGemmPanel : map.n_out;
    parallel_claim(0, map.n_out, std::max<int64_t>(grain, 1), [&](int64_t begin, int64_t end) {
        int64_t piece_non_finite = 0;
        apply_range(w, b, map, x, begin, end - begin, y, non_finite ? &piece_non_finite : nullptr);
        if (non_finite) *non_finite += piece_non_finite;
    });
    return y;
}

}  // namespace

Tensor linear_map_forward(const Weights& weights, const LinearParams& map, const Tensor& x) {
    return apply_map(weights, map, x, nullptr);
}

CountedOutput linear_map_forward_counted(const Weights& weights, const LinearParams& map, const Tensor& x) {
    std::atomic<int64_t> non_finite{0};
    Tensor y = apply_map(weights, map, x, &non_finite);
    return {std::move(y), non_finite.load()};
}

namespace {

Tensor transposed(const Tensor& m) {  // (R, C) -> (C, R)
    Tensor t = Tensor::uninitialized({m.dim(1), m.dim(0)});
    transpose(m.data.data(), m.dim(0), m.dim(1), m.dim(1), t.data.data(), m.dim(0));
    return t;
}

// y (rows, n) = a (rows, K) · b (K, n), b's rows `ldb` apart (F32, or BF16 read by gemm_in_out_bf16), by gemm with
// y's columns split between the threads as the forward's are (each output's bits are the same however they are split).
template <class T>
void product_split(const Tensor& a, const T* b, int64_t ldb, int64_t n, Tensor& y) {
    const int64_t rows = a.dim(0), K = a.dim(1);
    const int64_t grain = linear_map_splits(rows, K, n) ? kGemmPanel : n;
    parallel_for(0, n, grain, [&](int64_t begin, int64_t end) {
        if constexpr (std::is_same_v<T, uint16_t>)
            gemm_in_out_bf16(a.data.data(), rows, K, K, b + begin, ldb, end - begin, y.data.data() + begin, n);
        else
            gemm_in_out(a.data.data(), rows, K, K, b + begin, ldb, end - begin, y.data.data() + begin, n);
    });
}

}  // namespace

// With gemm on both threads: dx = dy·A and dA += dyᵀ·x (out_in), or dx = dy·Aᵀ and dA += xᵀ·dy (in_out); the
// transposes are copies of the (N, ·) activations, not of the weights.
Tensor linear_map_backward(const Weights& weights, const LinearParams& map, const Tensor& x, const Tensor& dy,
                           ParamGrads& grads) {
    const Tensor& w = weights.at(map.weight);
    assert(x.rank() == 2 && dy.rank() == 2 && x.dim(0) == dy.dim(0) && x.dim(1) == map.n_in && dy.dim(1) == map.n_out);
    const int64_t N = x.dim(0), in = map.n_in, out = map.n_out;
    // A map that is its whole weight hands its gradient over whole (ParamGrads::add); a packed Q;K;V map adds its
    // rows or columns into the weight's array.
    const bool whole = map.out_begin == 0 && out == map.n_stored_out;
    Tensor dx = Tensor::uninitialized({N, in});  // (N, in)
    if (map.layout == WeightLayout::out_in) {    // A: rows [out_begin, out_begin + n_out) of (stored out, in)
        const int64_t offset = map.out_begin * in;
        if (w.is_bf16())
            product_split(dy, w.bf16.data() + offset, in, in, dx);  // (N, out)·(out, in)
        else
            product_split(dy, w.data.data() + offset, in, in, dx);
        Tensor da = Tensor::uninitialized({out, in});
        product_split(transposed(dy), x.data.data(), in, in, da);  // (out, N)·(N, in)
        if (whole)
            grads.add(map.weight, std::move(da));
        else
            MatMap(grads.of(map.weight, w.shape).data.data() + offset, out, in) += da.matrix();
    } else {  // A: columns [out_begin, out_begin + n_out) of (in, stored out)
        const int64_t stride = map.n_stored_out, grain = linear_map_splits(N, out, in) ? kGemmPanel : in;
        parallel_for(0, in, grain, [&](int64_t begin, int64_t end) {  // (N, out)·(out, in): A's rows are Aᵀ's columns
            const int64_t first = map.out_begin + begin * stride;
            if (w.is_bf16())
                gemm_out_in_bf16(dy.data.data(), N, out, out, w.bf16.data() + first, stride, end - begin,
                                 dx.data.data() + begin, in);
            else
                gemm_out_in(dy.data.data(), N, out, out, w.data.data() + first, stride, end - begin,
                            dx.data.data() + begin, in);
        });
        Tensor da = Tensor::uninitialized({in, out});
        product_split(transposed(x), dy.data.data(), out, out, da);  // (in, N)·(N, out)
        if (whole)
            grads.add(map.weight, std::move(da));
        else
            Eigen::Map<Mat, 0, Eigen::OuterStride<>>(grads.of(map.weight, w.shape).data.data() + map.out_begin, in, out,
                                                     Eigen::OuterStride<>(stride)) += da.matrix();
    }
    if (const Tensor* b = map.bias.empty() ? nullptr : weights.find(map.bias)) {
        Tensor& db = grads.of(map.bias, b->shape);
        RowVecMap(db.data.data() + map.out_begin, map.n_out) += dy.matrix().colwise().sum();
    }
    return dx;
}

std::string linear_map_formula(const LinearParams& map, const std::string& x, const std::string& w,
                               const std::string& b) {
    std::string f = x + "·" + w + (map.layout == WeightLayout::out_in ? "ᵀ" : "");
    return map.bias.empty() ? f : f + " + " + b;
}

std::vector<std::string> linear_map_param_names(const LinearParams& map) {
    if (map.bias.empty()) return {map.weight};
    return {map.weight, map.bias};
}

Step linear_map_step(std::string title, std::string formula, const StepId& input, const LinearParams& map) {
    return {std::move(title),
            std::move(formula),
            {input},
            linear_map_param_names(map),
            {},
            "",
            [map](const StepContext& ctx) {
                CountedOutput y = linear_map_forward_counted(ctx.weights, map, ctx.input(0));
                return StepOutput{std::move(y.value), {}, y.non_finite};
            },
            [map](const BackwardContext& b) {
                return InputGrads{linear_map_backward(b.weights, map, b.input(0), b.d_output, b.params)};
            }};
}

}  // namespace attnlab
