// Tensor storage and its Eigen views.
#include "tensor.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

static int64_t last_dim(const Tensor& t) { return t.shape.empty() ? 1 : t.shape.back(); }

int64_t shape_numel(const Shape& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::string shape_string(const Shape& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (shape.size() == 1) s += ",";
    return s + ")";
}

Tensor::Tensor(Shape s) : shape(std::move(s)), data(static_cast<size_t>(shape_numel(shape)), 0.0f) {}

Tensor Tensor::uninitialized(Shape s) {
    Tensor t;
    t.data = FloatBuffer::uninitialized(static_cast<size_t>(shape_numel(s)));
    t.shape = std::move(s);
    return t;
}

std::shared_ptr<const Tensor> mapped_tensor(Shape shape, const float* data, std::shared_ptr<const void> owner) {
    Tensor t;
    t.data = FloatBuffer::view(data, static_cast<size_t>(shape_numel(shape)), std::move(owner));
    t.shape = std::move(shape);
    return std::make_shared<const Tensor>(std::move(t));
}

std::shared_ptr<const Tensor> mapped_bf16_tensor(Shape shape, const uint16_t* data, std::shared_ptr<const void> owner) {
    assert(owner && (data || shape_numel(shape) == 0));
    Tensor t;
    t.bf16 = Bf16Buffer::view(data, static_cast<size_t>(shape_numel(shape)), std::move(owner));
    t.shape = std::move(shape);
    return std::make_shared<const Tensor>(std::move(t));
}

Tensor widened(const Tensor& t) {
    if (!t.is_bf16()) return t;
    Tensor f = Tensor::uninitialized(t.shape);
    const uint16_t* src = t.bf16.data();
    float* dst = f.data.data();
    for (size_t i = 0; i < t.bf16.size(); ++i) dst[i] = bf16_to_float(src[i]);
    return f;
}

std::shared_ptr<const Tensor> as_f32(std::shared_ptr<const Tensor> t) {
    if (!t || !t->is_bf16()) return t;
    return std::make_shared<const Tensor>(widened(*t));
}

void row_as_f32(const Tensor& t, int64_t r, float* out) {
    const int64_t cols = last_dim(t);
    assert(r >= 0 && (r + 1) * cols <= t.numel());
    if (!t.is_bf16()) {
        std::copy(t.data.begin() + r * cols, t.data.begin() + (r + 1) * cols, out);
        return;
    }
    const uint16_t* src = t.bf16.data() + r * cols;
    for (int64_t c = 0; c < cols; ++c) out[c] = bf16_to_float(src[c]);
}

Tensor Tensor::from_matrix(const Mat& m) {
    Tensor t({m.rows(), m.cols()});
    t.matrix() = m;
    return t;
}

MatMap Tensor::matrix() {
    assert(!is_bf16());
    const int64_t cols = last_dim(*this);
    return MatMap(data.data(), cols ? numel() / cols : 0, cols);
}

ConstMatMap Tensor::matrix() const {
    assert(!is_bf16());
    const int64_t cols = last_dim(*this);
    return ConstMatMap(data.data(), cols ? numel() / cols : 0, cols);
}

MatMap Tensor::slice(int64_t i) {
    assert(!is_bf16() && rank() == 3 && i >= 0 && i < shape[0]);
    return MatMap(data.data() + i * shape[1] * shape[2], shape[1], shape[2]);
}

ConstMatMap Tensor::slice(int64_t i) const {
    assert(!is_bf16() && rank() == 3 && i >= 0 && i < shape[0]);
    return ConstMatMap(data.data() + i * shape[1] * shape[2], shape[1], shape[2]);
}

RowVecMap Tensor::row(int64_t r) {
    assert(!is_bf16());
    const int64_t cols = last_dim(*this);
    assert(r >= 0 && r * cols < numel());
    return RowVecMap(data.data() + r * cols, cols);
}

ConstRowVecMap Tensor::row(int64_t r) const {
    assert(!is_bf16());
    const int64_t cols = last_dim(*this);
    assert(r >= 0 && r * cols < numel());
    return ConstRowVecMap(data.data() + r * cols, cols);
}

}  // namespace attnlab
