// Rows of a step's output: which dim they are, slices and merges, what changed.
#include "step_rows.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace attnlab {

int row_axis(const StepId& id) {
    if (id.kind == StepKind::position_bias) return 1;  // (H, N, N), as the score stages it joins
    if (id.kind != StepKind::attention) return 0;
    return id.stage == AttentionStage::concat || id.stage == AttentionStage::out ? 0 : 1;
}

std::optional<size_t> key_input(const StepId& id) {
    if (id.kind != StepKind::attention) return std::nullopt;
    if (id.stage == AttentionStage::scores || id.stage == AttentionStage::context) return 1;
    return std::nullopt;
}

bool computes_by_rows(const Step& step) {
    return !step.inputs.empty() && !is_mask(step.record.id.kind);
}

int64_t row_count(const Tensor& t, int axis) { return t.dim(axis); }

namespace {

// memcpy and memmove of n floats; n may be 0 where an empty tensor's array is null, which memcpy does not allow.
void copy_floats(float* to, const float* from, int64_t n) {
    if (n > 0) std::memcpy(to, from, static_cast<size_t>(n) * sizeof(float));
}
void move_floats(float* to, const float* from, int64_t n) {
    if (n > 0) std::memmove(to, from, static_cast<size_t>(n) * sizeof(float));
}

// (blocks, N, width): the layout both ranks share, blocks = H for (H, N, ·) and 1 for (N, ·).
struct RowLayout {
    int64_t blocks, rows, width;
};

RowLayout layout_of(const Shape& shape, int axis) {
    assert(axis == 0 || axis == 1);
    int64_t blocks = 1;
    for (int d = 0; d < axis; ++d) blocks *= shape[static_cast<size_t>(d)];
    int64_t width = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) width *= shape[d];
    return {blocks, shape[static_cast<size_t>(axis)], width};
}

}  // namespace

Tensor slice_rows(const Tensor& t, int axis, int64_t from) {
    return slice_rows(t, axis, from, layout_of(t.shape, axis).rows);
}

Tensor slice_rows(const Tensor& t, int axis, int64_t from, int64_t to) {
    const RowLayout in = layout_of(t.shape, axis);
    assert(from >= 0 && from <= to && to <= in.rows);
    Shape shape = t.shape;
    shape[static_cast<size_t>(axis)] = to - from;
    Tensor out = Tensor::uninitialized(shape);  // every row copied below
    const int64_t n = (to - from) * in.width;
    for (int64_t b = 0; b < in.blocks; ++b)
        copy_floats(out.data.data() + b * n, t.data.data() + (b * in.rows + from) * in.width, n);
    return out;
}

Tensor merge_rows(Tensor old, const Tensor& fresh, int axis, int64_t from, const Shape& shape) {
    const RowLayout was = layout_of(old.shape, axis), to = layout_of(shape, axis), now = layout_of(fresh.shape, axis);
    assert(was.blocks == to.blocks && now.blocks == to.blocks && now.width == to.width && from + now.rows == to.rows);
    assert(from <= was.rows);
    const int64_t keep = std::min(was.width, to.width);  // the columns a kept row keeps
    auto kept_row = [](const RowLayout& l, int64_t b, int64_t r) { return (b * l.rows + r) * l.width; };
    Tensor out;
    const bool grows = to.rows >= was.rows && to.width >= was.width;
    const bool shrinks = to.rows <= was.rows && to.width <= was.width;
    if (grows || shrinks) {
        // In place: a growing tensor's rows move towards the end, so the last moves first, and a
        // shrinking one's towards the start, so the first does; no row overwrites one still to move.
        out = std::move(old);
        if (grows) out.data.resize(static_cast<size_t>(shape_numel(shape)));
        auto move_row = [&](int64_t b, int64_t r) {
            float* data = out.data.data();
            const int64_t src = kept_row(was, b, r), dst = kept_row(to, b, r);
            if (src != dst) move_floats(data + dst, data + src, keep);
            std::fill(data + dst + keep, data + dst + to.width, 0.0f);
        };
        if (grows)
            for (int64_t b = to.blocks; b-- > 0;)
                for (int64_t r = from; r-- > 0;) move_row(b, r);
        else
            for (int64_t b = 0; b < to.blocks; ++b)
                for (int64_t r = 0; r < from; ++r) move_row(b, r);
        if (shrinks) out.data.resize(static_cast<size_t>(shape_numel(shape)));
        out.shape = shape;
    } else {
        out = Tensor(shape);
        for (int64_t b = 0; b < to.blocks; ++b)
            for (int64_t r = 0; r < from; ++r)
                copy_floats(out.data.data() + kept_row(to, b, r), old.data.data() + kept_row(was, b, r), keep);
    }
    for (int64_t b = 0; b < to.blocks; ++b)
        copy_floats(out.data.data() + kept_row(to, b, from), fresh.data.data() + b * now.rows * now.width,
                    now.rows * now.width);
    return out;
}

int64_t first_differing_row(const Tensor& a, const Tensor& b) {
    const RowLayout la = layout_of(a.rank() == 1 ? Shape{a.dim(0), 1} : a.shape, 0);
    const RowLayout lb = layout_of(b.rank() == 1 ? Shape{b.dim(0), 1} : b.shape, 0);
    const int64_t common_rows = std::min(la.rows, lb.rows), common = std::min(la.width, lb.width);
    auto non_zero = [](const float* p, int64_t n) { return std::any_of(p, p + n, [](float x) { return x != 0.0f; }); };
    for (int64_t r = 0; r < common_rows; ++r) {
        const float* ra = a.data.data() + r * la.width;
        const float* rb = b.data.data() + r * lb.width;
        if (common > 0 && std::memcmp(ra, rb, static_cast<size_t>(common) * sizeof(float)) != 0) return r;
        if (non_zero(ra + common, la.width - common) || non_zero(rb + common, lb.width - common)) return r;
    }
    return la.rows == lb.rows && la.width == lb.width ? kRowsUnchanged : common_rows;
}

int64_t first_row_seeing(const Tensor& mask, int64_t first_key) {
    assert(mask.rank() == 2);
    const int64_t rows = mask.dim(0), keys = mask.dim(1);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = std::max<int64_t>(first_key, 0); k < keys; ++k)
            if (mask.data[static_cast<size_t>(r * keys + k)] != 0.0f) return r;
    return kRowsUnchanged;
}

}  // namespace attnlab
