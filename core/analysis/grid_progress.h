// The progress of a grid of runs (activation patching, attention knockout): called after each cell with the cells
// done so far and all of them. Returning false stops the grid, which then returns kGridStopped as its error: a
// request replaced while its grid runs need not run to the end.
#pragma once

#include <cstdint>
#include <functional>

namespace attnlab {

using GridProgress = std::function<bool(int64_t done, int64_t total)>;
inline constexpr const char* kGridStopped = "stopped before the grid's end";

}  // namespace attnlab
