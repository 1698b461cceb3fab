// The playground's attention: checks the typed matrices, then runs the engine's kernels on one head.
#include "teach/hand_attention.h"

#include "ops/attention.h"
#include "ops/masks.h"
#include "ops/softmax.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnlab {

namespace {

std::string shape_text(Eigen::Index rows, Eigen::Index cols) {
    return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

// An error for the first wrong shape or value of `m`, named `name` with 1-based (row, column).
Status check_matrix(const char* name, const Mat& m, Eigen::Index rows, Eigen::Index cols) {
    if (m.rows() != rows || m.cols() != cols)
        return Error{std::string(name) + " must be " + shape_text(rows, cols) + ", not " +
                     shape_text(m.rows(), m.cols())};
    for (Eigen::Index r = 0; r < rows; ++r)
        for (Eigen::Index c = 0; c < cols; ++c)
            if (!std::isfinite(m(r, c)) || std::abs(m(r, c)) > kHandMaxAbs)
                return Error{std::string(name) + shape_text(r + 1, c + 1) + " must be a number between -" +
                             std::to_string(static_cast<int>(kHandMaxAbs)) + " and " +
                             std::to_string(static_cast<int>(kHandMaxAbs))};
    return ok_status();
}

bool in_range(Eigen::Index n) { return n >= kHandMinSize && n <= kHandMaxSize; }

// (T, D) -> a one-head tensor (1, T, D), the layout the attention kernels take.
Tensor one_head(const Mat& m) {
    Tensor t({1, m.rows(), m.cols()});
    t.slice(0) = m;
    return t;
}

// m resized to (rows, cols): the overlap is kept, new entries are `fill`.
Mat resized(const Mat& m, Eigen::Index rows, Eigen::Index cols, float fill) {
    Mat out = Mat::Constant(rows, cols, fill);
    const Eigen::Index r = std::min(rows, m.rows()), c = std::min(cols, m.cols());
    out.topLeftCorner(r, c) = m.topLeftCorner(r, c);
    return out;
}

}  // namespace

Result<HandAttention> hand_attention(const HandSpec& spec) {
    const Eigen::Index T = spec.mask.rows(), C = spec.x.cols(), D = spec.q.cols();
    if (!in_range(T) || !in_range(C) || !in_range(D))
        return Error{"tokens, d_model and d_k must each be from " + std::to_string(kHandMinSize) + " to " +
                     std::to_string(kHandMaxSize)};
    HandAttention out;
    if (spec.input == HandInput::projected) {
        for (auto [name, m, rows, cols] : {std::tuple{"X", &spec.x, T, C}, std::tuple{"W_Q", &spec.w_q, C, D},
                                           std::tuple{"W_K", &spec.w_k, C, D}, std::tuple{"W_V", &spec.w_v, C, D}})
            if (auto st = check_matrix(name, *m, rows, cols); !st) return st.error();
        out.q.noalias() = spec.x * spec.w_q;
        out.k.noalias() = spec.x * spec.w_k;
        out.v.noalias() = spec.x * spec.w_v;
    } else {
        for (auto [name, m] : {std::pair{"Q", &spec.q}, std::pair{"K", &spec.k}, std::pair{"V", &spec.v}})
            if (auto st = check_matrix(name, *m, T, D); !st) return st.error();
        out.q = spec.q, out.k = spec.k, out.v = spec.v;
    }
    if (auto st = check_matrix("mask", spec.mask, T, T); !st) return st.error();

    const Tensor q = one_head(out.q), k = one_head(out.k), v = one_head(out.v);  // (1, T, D)
    const Tensor scores = attention_scores(q, k);                                // (1, T, T)
    const Tensor scaled = spec.scale ? scale_scores(scores, static_cast<float>(D)) : scores;
    const Tensor masked = mask_scores(scaled, Tensor::from_matrix(spec.mask));
    const Tensor weights = softmax_rows(masked, &out.fully_masked_rows);
    const Tensor context = attention_context(weights, v, {});  // (1, T, D)
    out.scores = scores.slice(0);
    out.scaled = scaled.slice(0);
    out.masked = masked.slice(0);
    out.weights = weights.slice(0);
    out.context = context.slice(0);
    return out;
}

void resize_hand_spec(HandSpec& spec, int n_tokens, int d_model, int d_k) {
    const Eigen::Index T = std::clamp(n_tokens, kHandMinSize, kHandMaxSize);
    const Eigen::Index C = std::clamp(d_model, kHandMinSize, kHandMaxSize);
    const Eigen::Index D = std::clamp(d_k, kHandMinSize, kHandMaxSize);
    spec.x = resized(spec.x, T, C, 0.0f);
    for (Mat* w : {&spec.w_q, &spec.w_k, &spec.w_v}) *w = resized(*w, C, D, 0.0f);
    for (Mat* m : {&spec.q, &spec.k, &spec.v}) *m = resized(*m, T, D, 0.0f);
    spec.mask = resized(spec.mask, T, T, 1.0f);
}

void set_hand_input(HandSpec& spec, HandInput input) {
    if (input == HandInput::qkv && spec.input == HandInput::projected)
        if (auto result = hand_attention(spec)) {
            spec.q = result->q, spec.k = result->k, spec.v = result->v;
            // A projection of typed values can exceed what may be typed: keep every entry typeable.
            for (Mat* m : {&spec.q, &spec.k, &spec.v}) *m = m->cwiseMax(-kHandMaxAbs).cwiseMin(kHandMaxAbs);
        }
    spec.input = input;
}

Mat all_allowed_mask(int n_tokens) { return Mat::Ones(n_tokens, n_tokens); }

Mat causal_mask(int n_tokens) { return look_ahead_mask(n_tokens).matrix(); }

}  // namespace attnlab
