// Linear maps read in their stored layout: no transposed copies of a mapped file's weights.
#include "forward/linear_map.h"

#include "ops/gemm.h"
#include "ops/linear.h"
#include "parallel.h"

#include <cassert>

namespace attnlab {

namespace {

// Outputs [begin, begin + n) of the map's own range, into columns [begin, begin + n) of y.
void apply_range(const Tensor& w, const Tensor* b, const LinearParams& map, const Tensor& x, int64_t begin, int64_t n,
                 Tensor& y) {
    const int64_t first = map.out_begin + begin;
    OutputColumns out(y.data.data() + begin, y.dim(0), n, Eigen::OuterStride<>(y.dim(1)));
    if (map.layout == WeightLayout::out_in)
        linear_forward(x, w, b, first, n, out);
    else
        linear_in_out_forward(x, w, b, first, n, out);
}

}  // namespace

bool linear_map_splits(int64_t n_rows, int64_t n_in, int64_t n_out) {
    return n_rows * n_in * n_out >= kSplitMultiplyAdds;
}

Tensor linear_map_forward(const Weights& weights, const LinearParams& map, const Tensor& x) {
    const Tensor& w = weights.at(map.weight);
    assert(w.shape == map.weight_shape() && x.dim(-1) == map.n_in);
    const Tensor* b = map.bias.empty() ? nullptr : map.bias_optional ? weights.find(map.bias) : &weights.at(map.bias);
    Tensor y = Tensor::uninitialized({x.dim(0), map.n_out});  // (N, out), every column written by one range
    // Split by whole panels of the gemm (ops/gemm.h): every output's bits are the same however the columns are
    // split, and whole panels keep each thread's share free of partial ones.
    constexpr int64_t kColumnGrain = kGemmPanel;
    const int64_t grain = linear_map_splits(x.dim(0), map.n_in, map.n_out) ? kColumnGrain : map.n_out;
    parallel_for(0, map.n_out, grain,
                 [&](int64_t begin, int64_t end) { apply_range(w, b, map, x, begin, end - begin, y); });
    return y;
}

Tensor linear_map_backward(const Weights& weights, const LinearParams& map, const Tensor& x, const Tensor& dy,
                           ParamGrads& grads) {
    const Tensor& w = weights.at(map.weight);
    assert(x.rank() == 2 && dy.rank() == 2 && x.dim(0) == dy.dim(0) && x.dim(1) == map.n_in && dy.dim(1) == map.n_out);
    using Block = Eigen::Map<const Mat, 0, Eigen::OuterStride<>>;
    using GradBlock = Eigen::Map<Mat, 0, Eigen::OuterStride<>>;
    Tensor& dw = grads.of(map.weight, w.shape);
    Tensor dx({x.dim(0), map.n_in});           // (N, in)
    if (map.layout == WeightLayout::out_in) {  // rows [out_begin, out_begin + n_out) of (stored out, in)
        const int64_t offset = map.out_begin * map.n_in;
        const Block a(w.data.data() + offset, map.n_out, map.n_in, Eigen::OuterStride<>(map.n_in));
        GradBlock da(dw.data.data() + offset, map.n_out, map.n_in, Eigen::OuterStride<>(map.n_in));
        dx.matrix().noalias() = dy.matrix() * a;               // (N, out)·(out, in)
        da.noalias() += dy.matrix().transpose() * x.matrix();  // (out, N)·(N, in)
    } else {  // columns [out_begin, out_begin + n_out) of (in, stored out)
        const Block a(w.data.data() + map.out_begin, map.n_in, map.n_out, Eigen::OuterStride<>(map.n_stored_out));
        GradBlock da(dw.data.data() + map.out_begin, map.n_in, map.n_out, Eigen::OuterStride<>(map.n_stored_out));
        dx.matrix().noalias() = dy.matrix() * a.transpose();   // (N, out)·(out, in)
        da.noalias() += x.matrix().transpose() * dy.matrix();  // (in, N)·(N, out)
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

}  // namespace attnlab
