// Backward passes of linear, LayerNorm, the activations, softmax, one attention head and
// cross-entropy: dL/d(input) returned, parameter gradients added into accumulators.
#include "train/grad_ops.h"

#include "parallel.h"

#include <cassert>
#include <cmath>

namespace attnlab {

namespace {

// dx = y ⊙ (dy − Σ_j dy·y), per row. dx may be the same memory as dy.   (R, K)
void softmax_backward_rows(const Eigen::Ref<const Mat>& y, const Eigen::Ref<const Mat>& dy, Eigen::Ref<Mat> dx) {
    assert(y.rows() == dy.rows() && y.cols() == dy.cols() && dx.rows() == y.rows() && dx.cols() == y.cols());
    Eigen::VectorXf dot(y.rows());  // (R)  Σ_j dy·y
    dot.noalias() = y.cwiseProduct(dy).rowwise().sum();
    dx.array() = y.array() * (dy.array().colwise() - dot.array());
}

}  // namespace

Tensor linear_backward(const Tensor& x, const Tensor& weight, const Tensor& dy, Tensor* dweight, Tensor* dbias,
                       int64_t row_begin) {
    assert(x.rank() == 2 && weight.rank() == 2 && dy.rank() == 2);
    assert(x.dim(1) == weight.dim(1) && dy.dim(0) == x.dim(0));
    const int64_t n_in = weight.dim(1), n_out = dy.dim(1);
    assert(row_begin >= 0 && row_begin + n_out <= weight.dim(0));
    ConstMatMap w(weight.data.data() + row_begin * n_in, n_out, n_in);  // (out, in)
    ConstMatMap xm = x.matrix();                                        // (N, in)
    ConstMatMap dym = dy.matrix();                                      // (N, out)

    // dx = dy·W[rows]   (N, in)
    Tensor dx({x.dim(0), n_in});
    dx.matrix().noalias() = dym * w;
    if (dweight) {
        assert(dweight->shape == weight.shape);
        // dW[rows] += dyᵀ·x   (out, in)
        MatMap dw(dweight->data.data() + row_begin * n_in, n_out, n_in);
        dw.noalias() += dym.transpose() * xm;
    }
    if (dbias) {
        assert(dbias->rank() == 1 && row_begin + n_out <= dbias->dim(0));
        // db[rows] += Σ_rows dy   (out)
        RowVecMap db(dbias->data.data() + row_begin, n_out);
        db += dym.colwise().sum();
    }
    return dx;
}

Tensor layer_norm_backward(const Tensor& x, const Tensor& gain, float eps, const Tensor& dy, Tensor* dgain,
                           Tensor* dbias) {
    const int64_t C = x.dim(-1);
    assert(gain.numel() == C && dy.shape == x.shape);
    ConstMatMap in = x.matrix();    // (N, C)
    ConstMatMap dym = dy.matrix();  // (N, C)
    ConstRowVecMap g(gain.data.data(), C);
    Tensor dx(x.shape);
    MatMap out = dx.matrix();  // (N, C)
    assert(!dgain || dgain->numel() == C);
    if (dbias) {
        assert(dbias->numel() == C);
        RowVecMap(dbias->data.data(), C) += dym.colwise().sum();  // dβ += Σ dy
    }

    // With x̂ = (x − mean)·r, r = 1/√(var + ε), and g = dy ⊙ γ (= dL/dx̂):
    //   dx = r · (g − mean(g) − x̂ · mean(g ⊙ x̂)),   dγ += Σ dy ⊙ x̂
    RowVec xhat(C), dxhat(C);  // (C)
    const float inv_c = 1.0f / static_cast<float>(C);
    for (int64_t r = 0; r < in.rows(); ++r) {
        // The same statistics, in the same order, as layer_norm_forward.
        const float mean = in.row(r).mean();
        const float var = (in.row(r).array() - mean).square().mean();
        const float inv_std = 1.0f / std::sqrt(var + eps);
        xhat = ((in.row(r).array() - mean) * inv_std).matrix();
        dxhat = dym.row(r).cwiseProduct(g);
        const float mean_g = dxhat.sum() * inv_c;
        const float mean_gx = dxhat.dot(xhat) * inv_c;
        out.row(r) = ((dxhat.array() - mean_g - xhat.array() * mean_gx) * inv_std).matrix();
        if (dgain) RowVecMap(dgain->data.data(), C) += dym.row(r).cwiseProduct(xhat);
    }
    return dx;
}

namespace {

// dh[i] = dy[i]·act'(h[i]) for i in [begin, end): each entry on its own, so a split between threads keeps every bit.
void activation_backward_range(const float* h, const float* dy, float* dh, int64_t begin, int64_t end,
                               Activation kind) {
    switch (kind) {
        case Activation::relu:  // ReLU'(h) = [h > 0]
            for (int64_t i = begin; i < end; ++i) dh[i] = h[i] > 0.0f ? dy[i] : 0.0f;
            break;
        case Activation::gelu:  // (hΦ(h))' = Φ(h) + h·φ(h),  φ(h) = e^(−h²/2)/√(2π)
            for (int64_t i = begin; i < end; ++i) {
                const float x = h[i];
                const float cdf = 0.5f * (1.0f + std::erf(x * 0.70710678118654752f));
                const float pdf = 0.39894228040143268f * std::exp(-0.5f * x * x);
                dh[i] = dy[i] * (cdf + x * pdf);
            }
            break;
        case Activation::gelu_tanh:  // u = k(h + 0.044715h³), t = tanh u: ½(1 + t) + ½h(1 − t²)·k(1 + 3·0.044715h²)
            for (int64_t i = begin; i < end; ++i) {
                const float x = h[i];
                constexpr float k = 0.79788456080286536f, c = 0.044715f;
                const float t = std::tanh(k * (x + c * x * x * x));
                const float du = k * (1.0f + 3.0f * c * x * x);
                dh[i] = dy[i] * (0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * du);
            }
            break;
        case Activation::silu:  // (h·σ(h))' = σ(h)·(1 + h·(1 − σ(h)))
            for (int64_t i = begin; i < end; ++i) {
                const float x = h[i];
                const float sigma = 1.0f / (1.0f + std::exp(-x));
                dh[i] = dy[i] * sigma * (1.0f + x * (1.0f - sigma));
            }
            break;
    }
}

}  // namespace

Tensor activation_backward(const Tensor& h, const Tensor& dy, Activation kind) {
    assert(h.shape == dy.shape);
    Tensor dh = Tensor::uninitialized(h.shape);
    const int64_t n = h.numel();
    constexpr int64_t kSplitEntries = int64_t{1} << 16;  // GPT-2 small's (256, 3072) FFN: 786k entries
    parallel_for(0, n, n >= kSplitEntries ? 4096 : std::max<int64_t>(n, 1), [&](int64_t begin, int64_t end) {
        activation_backward_range(h.data.data(), dy.data.data(), dh.data.data(), begin, end, kind);
    });
    return dh;
}

Tensor softmax_rows_backward(const Tensor& y, const Tensor& dy) {
    assert(y.rank() >= 1 && y.shape == dy.shape);
    Tensor dx(y.shape);
    // An all-zero row of y (fully masked) gives y ⊙ (…) = 0.
    softmax_backward_rows(y.matrix(), dy.matrix(), dx.matrix());
    return dx;
}

CrossEntropyResult cross_entropy_forward_backward(const Tensor& logits, const std::vector<int>& targets, int pad_id,
                                                  float label_smoothing) {
    assert(logits.rank() == 2 && static_cast<int64_t>(targets.size()) == logits.dim(0));
    assert(label_smoothing >= 0.0f && label_smoothing <= 1.0f);
    const int64_t N = logits.dim(0), V = logits.dim(1);
    CrossEntropyResult res;
    res.dlogits = Tensor({N, V});  // (N, V), zero on ignored rows
    for (int t : targets)
        if (t != pad_id) {
            assert(t >= 0 && t < V);
            ++res.n_counted;
        }
    if (res.n_counted == 0) return res;

    ConstMatMap x = logits.matrix();   // (N, V)
    MatMap dl = res.dlogits.matrix();  // (N, V)
    const double eps = label_smoothing;
    const double inv_n = 1.0 / static_cast<double>(res.n_counted);
    const float off_target = static_cast<float>(eps / static_cast<double>(V) * inv_n);  // ε/V/n
    const float on_target = static_cast<float>((1.0 - eps) * inv_n);                    // (1 − ε)/n
    double total = 0.0;
    for (int64_t r = 0; r < N; ++r) {
        const int t = targets[static_cast<size_t>(r)];
        if (t == pad_id) continue;
        // With lse = log Σ_j e^{x_j}, log p_j = x_j − lse and
        //   loss_r = −(1 − ε)·log p_t − (ε/V)·Σ_j log p_j = lse − (1 − ε)·x_t − (ε/V)·Σ_j x_j
        const float max = x.row(r).maxCoeff();
        dl.row(r) = (x.row(r).array() - max).exp().matrix();
        const double sum = dl.row(r).sum();
        const double lse = max + std::log(sum);
        total += lse - (1.0 - eps) * x(r, t) - eps / static_cast<double>(V) * x.row(r).sum();
        // dlogits = (softmax − ((1 − ε)·one_hot + ε/V)) / n
        dl.row(r) *= static_cast<float>(inv_n / sum);
        dl.row(r).array() -= off_target;
        dl(r, t) -= on_target;
    }
    res.loss = total * inv_n;
    return res;
}

}  // namespace attnlab
