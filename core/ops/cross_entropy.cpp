// loss_r = lse − (1 − ε)·x_t − (ε/V)·Σ_j x_j per counted row, and dlogits = (softmax − target distribution) / n.
#include "ops/cross_entropy.h"

#include <cassert>
#include <cmath>

namespace attnlab {

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
