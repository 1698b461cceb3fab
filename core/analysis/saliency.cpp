#include "analysis/saliency.h"

#include <cassert>

namespace attnlab {

TokenSaliency token_saliency(const Tensor& x, const Tensor& d_x) {
    assert(x.rank() == 2 && x.shape == d_x.shape);
    TokenSaliency s;
    for (int64_t t = 0; t < x.dim(0); ++t) {
        s.gradient_norm.push_back(d_x.row(t).norm());
        s.gradient_times_input.push_back(d_x.row(t).dot(x.row(t)));
    }
    return s;
}

}  // namespace attnlab
