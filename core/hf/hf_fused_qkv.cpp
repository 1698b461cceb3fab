#include "hf/hf_fused_qkv.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

namespace {

// Moves row blocks of D rows: block (h, which) of the per-head order to (which, h) of the block order, or back.
Tensor reorder(const Tensor& t, int n_heads, bool to_blocks) {
    const int64_t rows = t.dim(0), width = t.numel() / rows, H = n_heads;
    assert(rows % (3 * H) == 0);
    const int64_t D = rows / (3 * H), block = D * width;
    Tensor out(t.shape);
    for (int64_t h = 0; h < H; ++h)
        for (int64_t which = 0; which < 3; ++which) {
            const int64_t per_head = (h * 3 + which) * block, in_blocks = (which * H + h) * block;
            const float* from = t.data.data() + (to_blocks ? per_head : in_blocks);
            std::copy_n(from, block, out.data.data() + (to_blocks ? in_blocks : per_head));
        }
    return out;
}

}  // namespace

bool is_per_head_qkv(Family family, const std::string& param) {
    return family == Family::bloom && (param.ends_with(".self_attention.query_key_value.weight") ||
                                       param.ends_with(".self_attention.query_key_value.bias"));
}

Tensor qkv_heads_to_blocks(const Tensor& t, int n_heads) { return reorder(t, n_heads, true); }
Tensor qkv_blocks_to_heads(const Tensor& t, int n_heads) { return reorder(t, n_heads, false); }

}  // namespace attnlab
