// Why a mask cell is 0, from the rules that build the masks (core/ops/masks.h): a padding key, a key after the
// query (the look-ahead mask), or a key W or more positions before it (Mistral's sliding window: query i sees
// keys i − W < j ≤ i). The masks view's cell tooltip names it.
#pragma once

namespace attnlab::gui {

enum class BlockedBy {
    nothing,        // the rules allow the cell (a 0 there is the user's flip)
    padding,        // the key is padding
    future,         // the key comes after the query
    sliding_window  // the key is `window` or more positions before the query
};

struct MaskCell {
    int row = 0, col = 0;         // query i, key j
    bool key_is_padding = false;  // keep_j = 0
    bool causal = false;          // queries and keys are the decoder's own tokens (look-ahead, window)
    int window = 0;               // W of a sliding window; 0: none
};

BlockedBy blocked_by(const MaskCell& cell);

}  // namespace attnlab::gui
