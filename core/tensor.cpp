// Tensor storage and its Eigen views.
#include "tensor.h"

#include <cassert>

namespace attnlab {

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

Tensor Tensor::from_matrix(const Mat& m) {
    Tensor t({m.rows(), m.cols()});
    t.matrix() = m;
    return t;
}

static int64_t last_dim(const Tensor& t) { return t.shape.empty() ? 1 : t.shape.back(); }

MatMap Tensor::matrix() {
    const int64_t cols = last_dim(*this);
    return MatMap(data.data(), cols ? numel() / cols : 0, cols);
}

ConstMatMap Tensor::matrix() const {
    const int64_t cols = last_dim(*this);
    return ConstMatMap(data.data(), cols ? numel() / cols : 0, cols);
}

MatMap Tensor::slice(int64_t i) {
    assert(rank() == 3 && i >= 0 && i < shape[0]);
    return MatMap(data.data() + i * shape[1] * shape[2], shape[1], shape[2]);
}

ConstMatMap Tensor::slice(int64_t i) const {
    assert(rank() == 3 && i >= 0 && i < shape[0]);
    return ConstMatMap(data.data() + i * shape[1] * shape[2], shape[1], shape[2]);
}

RowVecMap Tensor::row(int64_t r) {
    const int64_t cols = last_dim(*this);
    assert(r >= 0 && r * cols < numel());
    return RowVecMap(data.data() + r * cols, cols);
}

ConstRowVecMap Tensor::row(int64_t r) const {
    const int64_t cols = last_dim(*this);
    assert(r >= 0 && r * cols < numel());
    return ConstRowVecMap(data.data() + r * cols, cols);
}

}  // namespace attnlab
