// Token embeddings compared with each other: the tokens nearest to one by cosine similarity,
// and a 2-D picture of chosen tokens by principal component analysis.
#pragma once

#include "result.h"
#include "tensor.h"

#include <array>
#include <vector>

namespace attnlab {

struct TokenSimilarity {
    int id = 0;
    float cosine = 0.0f;
};

// The k rows of `table` (V, C) nearest to row `id` by cosine similarity, most similar first,
// `id` itself left out (ties: the lower id first). A zero row has cosine 0 with everything.
Result<std::vector<TokenSimilarity>> nearest_tokens(const Tensor& table, int id, int k);

// A 2-D picture of chosen rows: their coordinates on the first two principal components, and the
// share of the rows' variance each component explains.
struct Pca2d {
    Mat coords;                      // (n, 2)
    std::array<float, 2> explained;  // σ_k² / Σ σ² of the centred rows' singular values σ: PC1, PC2, each in [0, 1]
};

// Rows `ids` of `table` (V, C), centred, projected on their first two principal components.
// Each component's sign makes its largest-magnitude coordinate positive, so the picture does not
// flip between runs. Needs at least 3 distinct ids.
Result<Pca2d> pca_2d(const Tensor& table, const std::vector<int>& ids);

}  // namespace attnlab
