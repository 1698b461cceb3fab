#include "analysis/embedding_similarity.h"

#include <Eigen/SVD>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

namespace attnlab {

namespace {

Status check_id(const Tensor& table, int id) {
    if (id < 0 || id >= table.dim(0))
        return Error{"token id " + std::to_string(id) + " is outside the vocabulary 0.." +
                     std::to_string(table.dim(0) - 1)};
    return ok_status();
}

// The rows' norms and their dots with row id, of a BF16 table (V, C): widened a block of rows at a time, so that
// the table is never held as F32 whole.
void norms_and_dots_bf16(const Tensor& table, int id, Eigen::VectorXf& norms, Eigen::VectorXf& dots) {
    constexpr int64_t kBlockRows = 4096;
    const int64_t V = table.dim(0), C = table.dim(1);
    Eigen::RowVectorXf chosen(C);
    row_as_f32(table, id, chosen.data());
    norms.resize(V), dots.resize(V);
    Mat block(std::min(kBlockRows, V), C);  // (rows, C)
    for (int64_t r0 = 0; r0 < V; r0 += kBlockRows) {
        const int64_t rows = std::min(kBlockRows, V - r0);
        for (int64_t r = 0; r < rows; ++r) row_as_f32(table, r0 + r, block.row(r).data());
        norms.segment(r0, rows) = block.topRows(rows).rowwise().norm();
        dots.segment(r0, rows) = block.topRows(rows) * chosen.transpose();
    }
}

}  // namespace

Result<std::vector<TokenSimilarity>> nearest_tokens(const Tensor& table, int id, int k) {
    if (auto st = check_id(table, id); !st) return st.error();
    Eigen::VectorXf norms, dots;  // (V), (V)
    if (table.is_bf16()) {
        norms_and_dots_bf16(table, id, norms, dots);
    } else {
        const ConstMatMap e = table.matrix();  // (V, C)
        norms = e.rowwise().norm();
        dots = e * e.row(id).transpose();
    }
    std::vector<TokenSimilarity> all;
    for (int v = 0; v < static_cast<int>(table.dim(0)); ++v) {
        if (v == id) continue;
        const float denominator = norms(v) * norms(id);
        all.push_back({v, denominator > 0.0f ? dots(v) / denominator : 0.0f});
    }
    const size_t n = std::min(all.size(), static_cast<size_t>(std::max(k, 0)));
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(),
                      [](const TokenSimilarity& a, const TokenSimilarity& b) {
                          return a.cosine > b.cosine || (a.cosine == b.cosine && a.id < b.id);
                      });
    all.resize(n);
    return all;
}

Result<Pca2d> pca_2d(const Tensor& table, const std::vector<int>& ids) {
    for (int id : ids)
        if (auto st = check_id(table, id); !st) return st.error();
    if (std::set<int>(ids.begin(), ids.end()).size() < 3)
        return Error{"a 2-D picture needs at least 3 different tokens"};
    Eigen::MatrixXf x(static_cast<Eigen::Index>(ids.size()), table.dim(1));  // (n, C)
    Eigen::RowVectorXf row(table.dim(1));                                     // a BF16 table's row widened
    for (size_t i = 0; i < ids.size(); ++i) {
        row_as_f32(table, ids[i], row.data());
        x.row(static_cast<Eigen::Index>(i)) = row;
    }
    x.rowwise() -= x.colwise().mean();
    const Eigen::BDCSVD<Eigen::MatrixXf> svd(x, Eigen::ComputeThinU);
    Mat coords = (svd.matrixU().leftCols(2) * svd.singularValues().head(2).asDiagonal()).eval();  // (n, 2)
    for (int c = 0; c < 2; ++c) {
        Eigen::Index at = 0;
        coords.col(c).cwiseAbs().maxCoeff(&at);
        if (coords(at, c) < 0.0f) coords.col(c) *= -1.0f;
    }
    const Eigen::VectorXf sigma = svd.singularValues();  // (min(n, C),), descending
    const float total = sigma.squaredNorm();
    const std::array<float, 2> explained = {total > 0.0f ? sigma(0) * sigma(0) / total : 0.0f,
                                            total > 0.0f && sigma.size() > 1 ? sigma(1) * sigma(1) / total : 0.0f};
    return Pca2d{std::move(coords), explained};
}

}  // namespace attnlab
