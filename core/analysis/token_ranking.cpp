#include "analysis/token_ranking.h"

#include <algorithm>
#include <numeric>

namespace attnlab {

std::vector<TokenScore> rank_tokens(const Eigen::Ref<const RowVec>& row, int k, bool largest) {
    std::vector<int> ids(static_cast<size_t>(row.size()));
    std::iota(ids.begin(), ids.end(), 0);
    const auto n = std::min<size_t>(static_cast<size_t>(std::max(k, 0)), ids.size());
    std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(), [&](int a, int b) {
        return (largest ? row(a) > row(b) : row(a) < row(b)) || (row(a) == row(b) && a < b);
    });
    std::vector<TokenScore> out;
    for (size_t r = 0; r < n; ++r) out.push_back({ids[r], row(ids[r])});
    return out;
}

}  // namespace attnlab
