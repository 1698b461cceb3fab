// The largest |entry| of each row of each head of Q and K (row_magnitudes.h), which the stepper's overflow bound of
// QKᵀ reads: made whole for an output it has not seen, carried over the kept rows of a row re-run.
#include "ops/attention.h"
#include "row_magnitudes.h"
#include "step_rows.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace attnlab;
using namespace attnlab::test;

namespace {

// Row r of head h of x (H, N, D): its largest |entry| as std::max over std::abs takes it, +∞ if one is not finite.
float largest_of_row(const Tensor& x, int64_t h, int64_t r) {
    float largest = 0.0f;
    for (int64_t i = 0; i < x.dim(2); ++i) {
        const float v = x.data[static_cast<size_t>((h * x.dim(1) + r) * x.dim(2) + i)];
        if (!std::isfinite(v)) return std::numeric_limits<float>::infinity();
        largest = std::max(largest, std::abs(v));
    }
    return largest;
}

}  // namespace

TEST_CASE("largest_magnitude_by_row takes each row's largest |entry|, +∞ where one is NaN or ±∞", "[ops][attention]") {
    Tensor x = random_tensor({3, 7, 19}, 4);  // D = 19: not a whole packet
    x.data[5] = -40.0f;                                               // head 0, row 0: a negative entry is the largest
    x.data[static_cast<size_t>(19 * 3 + 2)] = -std::numeric_limits<float>::quiet_NaN();  // head 0, row 3
    x.data[static_cast<size_t>((7 + 6) * 19)] = -std::numeric_limits<float>::infinity();  // head 1, row 6
    for (const int64_t from : {0, 2, 7}) {
        const Tensor rows = largest_magnitude_by_row(x, from);
        REQUIRE(rows.shape == Shape{3, 7 - from});
        for (int64_t h = 0; h < 3; ++h)
            for (int64_t r = from; r < 7; ++r) {
                INFO("from " << from << ", head " << h << ", row " << r);
                CHECK(rows.data[static_cast<size_t>(h * (7 - from) + r - from)] == largest_of_row(x, h, r));
            }
    }
    CHECK(largest_magnitude_by_row(x, 0).data[0] == 40.0f);
    CHECK(std::isinf(largest_magnitude_by_row(x, 0).data[3]));
}

TEST_CASE("row magnitudes are carried over a row re-run's kept rows and remade for an output they do not follow",
          "[stepper][rows]") {
    const Tensor x = random_tensor({2, 5, 8}, 7);  // (H, N, D)
    RowMagnitudes magnitudes;
    magnitudes.reset(3);
    CHECK(magnitudes.of(1, x, 10).data == largest_magnitude_by_row(x, 0).data);

    // Rows [4, 6) recomputed (a token edited at 4 and one appended), the larger numbers in the new rows.
    Tensor fresh = random_tensor({2, 2, 8}, 8);
    for (float& v : fresh.data) v *= 50.0f;
    const Tensor merged = merge_rows(x, fresh, 1, 4, {2, 6, 8});
    magnitudes.carry(1, 10, 11, merged, 4);
    // Carried, not remade: asked with another tensor of the version it follows, it answers for `merged`.
    const Tensor other = random_tensor({2, 6, 8}, 9);
    CHECK(magnitudes.of(1, other, 11).data == largest_magnitude_by_row(merged, 0).data);

    SECTION("a carry from a version they do not follow leaves them to be remade") {
        magnitudes.carry(1, 10, 12, merged, 4);  // they follow 11, not 10
        CHECK(magnitudes.of(1, other, 12).data == largest_magnitude_by_row(other, 0).data);
    }
    SECTION("a step they hold nothing for is not carried") {
        magnitudes.carry(2, 0, 12, merged, 4);
        CHECK(magnitudes.of(2, other, 12).data == largest_magnitude_by_row(other, 0).data);
    }
    SECTION("reset forgets them") {
        magnitudes.reset(3);
        CHECK(magnitudes.of(1, other, 11).data == largest_magnitude_by_row(other, 0).data);
    }
}
