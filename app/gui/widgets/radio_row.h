// Radio buttons side by side, each going to the next line where it would pass the window's right edge (a
// projector's large type at 1280x720 cut "Cross-attention" to its circle).
#pragma once

#include <vector>

namespace attnlab::gui {

// Draws one radio button per label, `selected` lit; returns the index clicked this frame, or -1.
int radio_row(const std::vector<const char*>& labels, int selected);

}  // namespace attnlab::gui
