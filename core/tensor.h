// Tensor: a dense, row-major float array with a shape, as PyTorch lays it out.
// Matrices are Eigen row-major views over it: one token per row.
#pragma once

#include "bf16_buffer.h"
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
    // Or, for a weight opened from a BF16 checkpoint, its numbers as BF16 (data then empty): the linear maps'
    // gemm and the embedding gather read them as they are; every other reader takes the F32 form through
    // as_f32 / widened below. matrix(), slice() and row() exist only for F32 (they assert).
    Bf16Buffer bf16;

    Tensor() = default;
    explicit Tensor(Shape s);                 // zero-filled
    static Tensor uninitialized(Shape s);     // for a caller that writes every value before anything reads one
    static Tensor from_matrix(const Mat& m);  // (R, C) -> shape {R, C}

    int rank() const { return static_cast<int>(shape.size()); }
    int64_t numel() const { return static_cast<int64_t>(is_bf16() ? bf16.size() : data.size()); }
    int64_t dim(int i) const { return shape.at(static_cast<size_t>(i < 0 ? rank() + i : i)); }
    bool empty() const { return numel() == 0; }
    bool is_bf16() const { return !bf16.empty(); }
    int64_t storage_bytes() const { return numel() * (is_bf16() ? 2 : 4); }
    // One value by flat index, as a float (a BF16 one widened): for a reader of a few values of a weight.
    float value_at(int64_t flat) const {
        return is_bf16() ? bf16.at(static_cast<size_t>(flat)) : data[static_cast<size_t>(flat)];
    }

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

// A tensor over product(shape) BF16 values at `data` (2-byte aligned, little-endian) that `owner` keeps alive.
std::shared_ptr<const Tensor> mapped_bf16_tensor(Shape shape, const uint16_t* data, std::shared_ptr<const void> owner);

// The one way a reader that needs floats gets them from a weight that may be BF16: the tensor itself when it
// is F32 (no copy), else an F32 copy widened value by value (exact), owned by the returned pointer and made
// for that use only. Widening a large matrix costs its F32 size for as long as the result is held.
std::shared_ptr<const Tensor> as_f32(std::shared_ptr<const Tensor> t);
Tensor widened(const Tensor& t);  // an F32 copy of t, whichever its storage
// Row r of t viewed as (R, C) (C its last dim), as floats, into out[0 : C): a BF16 table's row widened.
void row_as_f32(const Tensor& t, int64_t r, float* out);

std::string shape_string(const Shape& shape);  // "(3, 4)"
int64_t shape_numel(const Shape& shape);

}  // namespace attnlab
