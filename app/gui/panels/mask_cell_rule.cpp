// The first rule that blocks a mask cell: padding, then the future, then the sliding window.
#include "panels/mask_cell_rule.h"

namespace attnlab::gui {

BlockedBy blocked_by(const MaskCell& cell) {
    if (cell.key_is_padding) return BlockedBy::padding;
    if (!cell.causal) return BlockedBy::nothing;
    if (cell.col > cell.row) return BlockedBy::future;
    if (cell.window > 0 && cell.row - cell.col >= cell.window) return BlockedBy::sliding_window;  // i − W < j fails
    return BlockedBy::nothing;
}

}  // namespace attnlab::gui
