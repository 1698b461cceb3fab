// T5's relative position buckets against the rule worked by hand, and the bias table they index, both ways.
#include "ops/relative_buckets.h"

#include <catch2/catch.hpp>

using namespace attnlab;

TEST_CASE("T5's bidirectional buckets: exact near offsets, log-spaced far ones, later keys in the upper half",
          "[relative_buckets]") {
    // T5's 32 buckets up to 128: 16 per direction, offsets below 8 exact, then 8 + ⌊log(n/8)/log(16)·8⌋.
    auto bucket = [](int64_t offset) { return relative_position_bucket(offset, true, 32, 128); };
    CHECK(bucket(0) == 0);
    CHECK(bucket(-1) == 1);
    CHECK(bucket(-7) == 7);
    CHECK(bucket(-8) == 8);     // log 1 = 0
    CHECK(bucket(-12) == 9);    // log 1.5 / log 16 · 8 = 1.17
    CHECK(bucket(-16) == 10);   // log 2 / log 16 · 8 = 2 exactly
    CHECK(bucket(-64) == 14);   // log 8 / log 16 · 8 = 6
    CHECK(bucket(-100) == 15);  // 7.29
    CHECK(bucket(-128) == 15);  // 8, capped at the last bucket
    CHECK(bucket(-1000) == 15);
    CHECK(bucket(1) == 17);  // a later key: 16 + its distance's bucket
    CHECK(bucket(7) == 23);
    CHECK(bucket(16) == 26);
}

TEST_CASE("T5's unidirectional buckets: a later key is distance 0, all 32 buckets look back", "[relative_buckets]") {
    auto bucket = [](int64_t offset) { return relative_position_bucket(offset, false, 32, 128); };
    CHECK(bucket(5) == 0);
    CHECK(bucket(0) == 0);
    CHECK(bucket(-5) == 5);
    CHECK(bucket(-15) == 15);
    CHECK(bucket(-16) == 16);
    CHECK(bucket(-32) == 21);  // 16 + ⌊log 2 / log 8 · 16⌋ = 16 + 5
    CHECK(bucket(-64) == 26);  // 16 + ⌊10.67⌋
    CHECK(bucket(-128) == 31);
}

TEST_CASE("the tiny fixtures' buckets (8 up to 16) are the ones the PyTorch reference printed", "[relative_buckets]") {
    // make_hf_t5_golden.py: encoder offsets −6 … 6, decoder offsets 0 … −7.
    const int encoder[] = {3, 2, 2, 2, 2, 1, 0, 5, 6, 6, 6, 6, 7};
    for (int offset = -6; offset <= 6; ++offset)
        CHECK(relative_position_bucket(offset, true, 8, 16) == encoder[offset + 6]);
    const int decoder[] = {0, 1, 2, 3, 4, 4, 5, 5};
    for (int back = 0; back < 8; ++back) CHECK(relative_position_bucket(-back, false, 8, 16) == decoder[back]);
}

TEST_CASE("the relative bias reads the table by bucket, and its backward sums each bucket's pairs",
          "[relative_buckets]") {
    // 2 queries × 3 keys, unidirectional, 4 buckets up to 8: offsets j − i, buckets by distance back.
    const std::vector<int> buckets = relative_bucket_map(2, 3, false, 4, 8);
    CHECK(buckets == std::vector<int>{0, 0, 0, 1, 0, 0});  // only query 1's key 0 is one back
    Tensor table({4, 2});  // (B, H)
    for (size_t i = 0; i < table.data.size(); ++i) table.data[i] = static_cast<float>(i + 1);  // [b, h] = 2b + h + 1
    const Tensor bias = relative_bias(table, buckets, 2, 3);  // (H, Nq, Nk)
    REQUIRE(bias.shape == Shape{2, 2, 3});
    CHECK(bias.data[0] == 1.0f);  // head 0, bucket 0
    CHECK(bias.data[3] == 3.0f);  // head 0, query 1, key 0: bucket 1
    CHECK(bias.data[6 + 3] == 4.0f);  // head 1, bucket 1
    Tensor d_bias({2, 2, 3});
    for (size_t i = 0; i < d_bias.data.size(); ++i) d_bias.data[i] = static_cast<float>(i);
    const Tensor d_table = relative_bias_backward(d_bias, buckets, 4);  // (B, H)
    REQUIRE(d_table.shape == Shape{4, 2});
    CHECK(d_table.data[0] == 0.0f + 1 + 2 + 4 + 5);  // head 0, bucket 0: every pair but (1, 0)
    CHECK(d_table.data[2] == 3.0f);                   // head 0, bucket 1
    CHECK(d_table.data[3] == 9.0f);                   // head 1, bucket 1
    CHECK(d_table.data[1] == 6.0f + 7 + 8 + 10 + 11);
    CHECK(d_table.data[4] == 0.0f);  // buckets no pair reached
}
