// The head view's token columns: spreading n tokens over a height, and finding the one under a pointer.
#include "panels/token_column.h"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

TokenColumn TokenColumn::spread(float top, float height, int n, float max_step) {
    TokenColumn c;
    c.n = n;
    if (n <= 0) return c;
    c.step = std::min(height / static_cast<float>(n), max_step);
    c.first = top + (height - c.step * static_cast<float>(n)) * 0.5f + 0.5f * c.step;
    return c;
}

int TokenColumn::at(float y) const {
    if (n <= 0 || step <= 0.0f) return -1;
    const int i = static_cast<int>(std::floor((y - first) / step + 0.5f));
    return i >= 0 && i < n ? i : -1;
}

}  // namespace attnlab::gui
