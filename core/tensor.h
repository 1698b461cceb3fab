// Tensor: a dense, row-major float array with a shape, as PyTorch lays it out.
// Matrices are Eigen row-major views over it: one token per row.
#pragma once

#include "float_buffer.h"

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVec = Eigen::Matrix<float, 1, Eigen::Dynamic>;
using MatMap = Eigen::Map<Mat>;
using ConstMatMap = Eigen::Map<const Mat>;
using RowVecMap = Eigen::Map<RowVec>;
using ConstRowVecMap = Eigen::Map<const RowVec>;

using Shape = std::vector<int64_t>;
struct Tensor {
    Shape shape;
    // Row-major, size = product of shape. Owned arrays are aligned to Eigen's widest packet:
    // Eigen's vectorised reductions peel by address, so equal alignment everywhere makes every
    // result reproducible bit for bit, run after run. A weight may instead be a read-only view
    // of a memory-mapped file (mapped_tensor), always at the same offset in it.
    FloatBuffer data;

    Tensor() = default;
    explicit Tensor(Shape s);                 // zero-filled
    static Tensor uninitialized(Shape s);     // for a caller that writes every value before anything reads one
    static Tensor from_matrix(const Mat& m);  // (R, C) -> shape {R, C}

    int rank() const { return static_cast<int>(shape.size()); }
    int64_t numel() const { return static_cast<int64_t>(data.size()); }
    int64_t dim(int i) const { return shape.at(static_cast<size_t>(i < 0 ? rank() + i : i)); }
    bool empty() const { return data.empty(); }

    // The whole tensor as (product of leading dims, last dim); a rank-1 tensor is (1, n).
    MatMap matrix();
    ConstMatMap matrix() const;
    // Slice i of the first dim as a matrix, e.g. head h of (H, T, D) is (T, D).
    MatMap slice(int64_t i);
    ConstMatMap slice(int64_t i) const;
    // Rank-1 view, or row r of a matrix view.
    RowVecMap row(int64_t r);
    ConstRowVecMap row(int64_t r) const;
};

// A tensor over product(shape) floats at `data` that `owner` keeps alive (a memory-mapped file),
// read in place. It exists only as const: a copy of it owns its numbers.
std::shared_ptr<const Tensor> mapped_tensor(Shape shape, const float* data, std::shared_ptr<const void> owner);

std::string shape_string(const Shape& shape);  // "(3, 4)"
int64_t shape_numel(const Shape& shape);

}  // namespace attnlab
