#include "row_magnitudes.h"

#include "ops/attention.h"
#include "step_rows.h"

#include <cassert>

namespace attnlab {

void RowMagnitudes::reset(size_t steps) { held_.assign(steps, {}); }

const Tensor& RowMagnitudes::of(size_t j, const Tensor& value, uint64_t version) {
    assert(j < held_.size() && version != 0);
    Held& h = held_[j];
    if (h.version != version) h = {version, largest_magnitude_by_row(value, 0)};
    return h.largest;
}

void RowMagnitudes::carry(size_t j, uint64_t was, uint64_t now, const Tensor& value, int64_t from) {
    if (j >= held_.size() || held_[j].version == 0 || held_[j].version != was) return;
    Held& h = held_[j];
    h.largest = merge_rows(std::move(h.largest), largest_magnitude_by_row(value, from), /*axis=*/1, from,
                           {value.dim(0), value.dim(1)});
    h.version = now;
}

}  // namespace attnlab
