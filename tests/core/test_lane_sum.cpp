// A row's sum and its elementwise map give the same bits wherever the row lies in memory and whatever its
// length around it: the stepper's row re-runs keep old rows on that promise (ops/lane_sum.h).
#include "ops/lane_sum.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace attnlab;

TEST_CASE("lane sums and block maps give the same bits at every offset, in place or not", "[ops]") {
    std::mt19937 rng(11);
    std::normal_distribution<float> normal(0.0f, 3.0f);
    const auto exp_block = [](const auto& v) { return (v - 1.5f).exp(); };
    for (int64_t n : {1, 15, 16, 17, 33, 64, 70}) {
        std::vector<float> row(static_cast<size_t>(n));
        for (float& x : row) x = normal(rng);
        std::vector<float> want(row.size());
        map_in_blocks(row.data(), want.data(), n, 0.0f, exp_block);
        const float want_sum = lane_sum(row.data(), n);
        for (int64_t offset = 1; offset < 16; ++offset) {
            INFO("n " << n << ", offset " << offset);
            std::vector<float> buffer(static_cast<size_t>(n + 32), 7.0f), out(buffer.size(), 0.0f);
            std::copy(row.begin(), row.end(), buffer.begin() + offset);
            map_in_blocks(buffer.data() + offset, out.data() + offset, n, 0.0f, exp_block);
            CHECK(std::memcmp(out.data() + offset, want.data(), want.size() * sizeof(float)) == 0);
            CHECK(out[static_cast<size_t>(offset + n)] == 0.0f);  // nothing past the row is written
            const float sum = lane_sum(buffer.data() + offset, n);
            CHECK(std::memcmp(&sum, &want_sum, sizeof sum) == 0);
            map_in_blocks(buffer.data() + offset, buffer.data() + offset, n, 0.0f, exp_block);  // in place
            CHECK(std::memcmp(buffer.data() + offset, want.data(), want.size() * sizeof(float)) == 0);
        }
    }
}

TEST_CASE("lane_max is std::max taken in order, NaN passed over, at every length", "[ops]") {
    std::mt19937 rng(5);
    std::normal_distribution<float> normal(0.0f, 3.0f);
    std::uniform_int_distribution<int> kind(0, 19);
    for (int64_t n = 0; n <= 70; ++n) {
        std::vector<float> x(static_cast<size_t>(n));
        for (float& v : x) {
            const int k = kind(rng);
            v = k == 0   ? std::numeric_limits<float>::quiet_NaN()
                : k == 1 ? -std::numeric_limits<float>::infinity()
                         : normal(rng);
        }
        float want = -std::numeric_limits<float>::infinity();
        for (const float v : x) want = std::max(want, v);
        INFO("n " << n);
        CHECK(lane_max(x.data(), n) == want);
    }
}

TEST_CASE("length_before_run_of finds the last entry that is not the value, at every length and run", "[ops]") {
    const float minus_inf = -std::numeric_limits<float>::infinity();
    for (const float value : {0.0f, minus_inf}) {
        for (int64_t n = 0; n <= 70; ++n) {
            for (int64_t run = 0; run <= n; ++run) {
                // n − run entries that are not `value` (a NaN and one copy of the value among the first of them,
                // the last of them a NaN: unequal to anything, in the vector compare too), then `run` copies of value.
                std::vector<float> x(static_cast<size_t>(n), 1.5f);
                for (int64_t i = n - run; i < n; ++i) x[static_cast<size_t>(i)] = value;
                if (n - run >= 3) {
                    x[0] = std::numeric_limits<float>::quiet_NaN();
                    x[1] = value;
                    x[static_cast<size_t>(n - run - 1)] = std::numeric_limits<float>::quiet_NaN();
                }
                INFO("value " << value << ", n " << n << ", run " << run);
                CHECK(length_before_run_of(x.data(), n, value) == n - run);
            }
        }
    }
}

TEST_CASE("all_16_equal sees an entry that differs at every one of the 16 places", "[ops]") {
    for (const float value : {0.0f, -std::numeric_limits<float>::infinity(), 2.5f}) {
        std::vector<float> x(16, value);
        CHECK(all_16_equal(x.data(), value));
        for (size_t at = 0; at < 16; ++at) {
            INFO("value " << value << ", differing at " << at);
            for (const float other : {1.0f, std::numeric_limits<float>::quiet_NaN()}) {
                x[at] = other;
                CHECK_FALSE(all_16_equal(x.data(), value));
            }
            x[at] = value;
        }
    }
    const std::vector<float> nans(16, std::numeric_limits<float>::quiet_NaN());
    CHECK_FALSE(all_16_equal(nans.data(), std::numeric_limits<float>::quiet_NaN()));  // NaN equals nothing
}
