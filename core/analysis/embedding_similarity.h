// Token embeddings compared with each other: the tokens nearest to one by cosine similarity,
// and a 2-D picture of chosen tokens by principal component analysis.
#pragma once

#include "result.h"
#include "tensor.h"

#include <vector>

namespace attnlab {

struct TokenSimilarity {
    int id = 0;
    float cosine = 0.0f;
};

// The k rows of `table` (V, C) nearest to row `id` by cosine similarity, most similar first,
// `id` itself left out (ties: the lower id first). A zero row has cosine 0 with everything.
Result<std::vector<TokenSimilarity>> nearest_tokens(const Tensor& table, int id, int k);

// Rows `ids` of `table` (V, C), centred, projected on their first two principal components:
// (n, 2). Each component's sign makes its largest-magnitude coordinate positive, so the picture
// does not flip between runs. Needs at least 3 distinct ids.
Result<Mat> pca_2d(const Tensor& table, const std::vector<int>& ids);

}  // namespace attnlab
