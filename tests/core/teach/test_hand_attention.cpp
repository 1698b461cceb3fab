// The playground's attention against numbers worked out by hand, its masks, resizing, input
// switching, presets and bad input.
#include "teach/hand_attention.h"
#include "teach/hand_presets.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace attnlab;

namespace {

constexpr float kTol = 1e-5f;

void check_matrix(const Mat& got, std::initializer_list<std::initializer_list<float>> expected) {
    REQUIRE(got.rows() == static_cast<Eigen::Index>(expected.size()));
    Eigen::Index r = 0;
    for (const auto& row : expected) {
        REQUIRE(got.cols() == static_cast<Eigen::Index>(row.size()));
        Eigen::Index c = 0;
        for (float v : row) {
            INFO("row " << r + 1 << ", column " << c + 1);
            if (std::isinf(v))
                CHECK(got(r, c) == v);
            else
                CHECK(got(r, c) == Approx(v).margin(kTol));
            ++c;
        }
        ++r;
    }
}

void check_rows_sum_to_one_or_zero(const HandAttention& a) {
    for (Eigen::Index i = 0; i < a.weights.rows(); ++i) {
        const bool fully_masked = std::isinf(a.masked.row(i).maxCoeff());
        CHECK(a.weights.row(i).sum() == Approx(fully_masked ? 0.0f : 1.0f).margin(kTol));
    }
}

constexpr float kInf = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("the notes' worked example matches the hand computation", "[teach]") {
    // By hand, with X = [[1,0,1],[0,1,0]], the notes' W_Q = [[1,0],[0,1],[1,1]], W_K = [[1,1],[0,1],[1,0]]
    // and our W_V = [[1,0],[2,3],[0,1]] (each (C=3, D=2), Q = X·W_Q):
    //   q₁ = 1·[1,0] + 0·[0,1] + 1·[1,1] = [2,1]     q₂ = [0,1]
    //   k₁ = 1·[1,1] + 0·[0,1] + 1·[1,0] = [2,1]     k₂ = [0,1]
    //   v₁ = [1,0] + [0,1] = [1,1]                   v₂ = [2,3]
    //   QKᵀ = [[2·2+1·1, 2·0+1·1], [0·2+1·1, 0·0+1·1]] = [[5,1],[1,1]]
    //   ÷√2 = [[3.5355339, 0.7071068], [0.7071068, 0.7071068]]
    //   mask [[0,1],[1,1]]: query 1 sees key 2 only -> row 1 = [−∞, 0.7071068]
    //   softmax: row 1 = [0, e^0.707/e^0.707] = [0, 1]; row 2 has equal scores -> [0.5, 0.5]
    //   ×V: row 1 = 1·v₂ = [2,3] (the notes' answer); row 2 = 0.5·[1,1] + 0.5·[2,3] = [1.5, 2]
    const auto a = hand_attention(notes_worked_example());
    REQUIRE(a);
    check_matrix(a->q, {{2, 1}, {0, 1}});
    check_matrix(a->k, {{2, 1}, {0, 1}});
    check_matrix(a->v, {{1, 1}, {2, 3}});
    check_matrix(a->scores, {{5, 1}, {1, 1}});
    check_matrix(a->scaled, {{3.5355339f, 0.7071068f}, {0.7071068f, 0.7071068f}});
    check_matrix(a->masked, {{-kInf, 0.7071068f}, {0.7071068f, 0.7071068f}});
    check_matrix(a->weights, {{0, 1}, {0.5f, 0.5f}});
    check_matrix(a->context, {{2, 3}, {1.5f, 2}});
    CHECK(a->weights(0, 0) == 0.0f);  // exactly 0, not merely small
    CHECK(a->fully_masked_rows.empty());
    check_rows_sum_to_one_or_zero(*a);
}

TEST_CASE("the notes' example with every key allowed, and without the scaling", "[teach]") {
    HandSpec spec = notes_worked_example();
    spec.mask = all_allowed_mask(2);
    // Row 1 now sees [3.5355339, 0.7071068]: the gap is 5/√2 − 1/√2 = 2√2 = 2.8284271, so
    //   w₁ = [1, e^−2.828] / (1 + e^−2.828) = [1, 0.0591057] / 1.0591057 = [0.9441928, 0.0558072]
    //   out₁ = 0.9441928·[1,1] + 0.0558072·[2,3] = [1.0558072, 1.1116144]
    auto a = hand_attention(spec);
    REQUIRE(a);
    check_matrix(a->weights, {{0.9441928f, 0.0558072f}, {0.5f, 0.5f}});
    check_matrix(a->context, {{1.0558072f, 1.1116144f}, {1.5f, 2}});
    // Unscaled, row 1 is [5, 1]: w₁ = [1, e^−4] / (1 + e^−4) = [0.9820138, 0.0179862], more peaked.
    spec.scale = false;
    a = hand_attention(spec);
    REQUIRE(a);
    check_matrix(a->scaled, {{5, 1}, {1, 1}});
    check_matrix(a->weights, {{0.9820138f, 0.0179862f}, {0.5f, 0.5f}});
}

TEST_CASE("a look-ahead example with a toggled and a fully masked row matches the hand computation", "[teach]") {
    // Q = [[1,0,1,0],[0,2,0,0],[1,1,1,1]], K = [[1,0,1,0],[0,1,0,1],[2,0,0,0]], D = 4 so √D = 2:
    //   QKᵀ row 1: q₁·k₁ = 1+1 = 2, q₁·k₂ = 0, q₁·k₃ = 2      -> [2,0,2]
    //   QKᵀ row 2: q₂·k₁ = 0,       q₂·k₂ = 2, q₂·k₃ = 0      -> [0,2,0]
    //   QKᵀ row 3: q₃·k₁ = 2,       q₃·k₂ = 2, q₃·k₃ = 2      -> [2,2,2]
    //   ÷2 -> [[1,0,1],[0,1,0],[1,1,1]]; the look-ahead mask keeps key j ≤ query i:
    //   masked = [[1,−∞,−∞],[0,1,−∞],[1,1,1]]
    //   softmax row 1 = [1,0,0]; row 2 = [1, e]/(1+e) = [0.2689414, 0.7310586, 0]; row 3 = [1/3, 1/3, 1/3]
    //   V = [[1,2,0,0],[3,0,1,0],[0,0,0,4]]:
    //   out₁ = v₁ = [1,2,0,0]
    //   out₂ = 0.2689414·[1,2,0,0] + 0.7310586·[3,0,1,0] = [2.4621172, 0.5378828, 0.7310586, 0]
    //   out₃ = (v₁+v₂+v₃)/3 = [4,2,1,4]/3 = [1.3333333, 0.6666667, 0.3333333, 1.3333333]
    HandSpec spec = look_ahead_example();
    auto a = hand_attention(spec);
    REQUIRE(a);
    check_matrix(a->scores, {{2, 0, 2}, {0, 2, 0}, {2, 2, 2}});
    check_matrix(a->scaled, {{1, 0, 1}, {0, 1, 0}, {1, 1, 1}});
    check_matrix(a->masked, {{1, -kInf, -kInf}, {0, 1, -kInf}, {1, 1, 1}});
    check_matrix(a->weights, {{1, 0, 0}, {0.2689414f, 0.7310586f, 0}, {1.0f / 3, 1.0f / 3, 1.0f / 3}});
    check_matrix(a->context,
                 {{1, 2, 0, 0}, {2.4621172f, 0.5378828f, 0.7310586f, 0}, {4.0f / 3, 2.0f / 3, 1.0f / 3, 4.0f / 3}});
    check_rows_sum_to_one_or_zero(*a);

    // The user blocks key 2 for query 3: row 3 = softmax([1, −∞, 1]) = [0.5, 0, 0.5], out₃ = (v₁+v₃)/2 = [0.5,1,0,2].
    // Blocking key 1 for query 1 leaves that query no key at all: its weights are all 0, and so is out₁.
    spec.mask(2, 1) = 0.0f;
    spec.mask(0, 0) = 0.0f;
    a = hand_attention(spec);
    REQUIRE(a);
    check_matrix(a->weights, {{0, 0, 0}, {0.2689414f, 0.7310586f, 0}, {0.5f, 0, 0.5f}});
    check_matrix(a->context, {{0, 0, 0, 0}, {2.4621172f, 0.5378828f, 0.7310586f, 0}, {0.5f, 1, 0, 2}});
    CHECK(a->fully_masked_rows == std::vector<int64_t>{0});
    check_rows_sum_to_one_or_zero(*a);
    for (Eigen::Index i = 0; i < 3; ++i)
        for (Eigen::Index j = 0; j < 3; ++j)
            if (spec.mask(i, j) == 0.0f) CHECK(a->weights(i, j) == 0.0f);
}

TEST_CASE("the look-ahead preset gives the same numbers projected, through X = I", "[teach]") {
    HandSpec spec = look_ahead_example();
    const auto typed = hand_attention(spec);
    spec.input = HandInput::projected;
    const auto projected = hand_attention(spec);
    REQUIRE(typed);
    REQUIRE(projected);
    CHECK(projected->context == typed->context);
    CHECK(projected->weights == typed->weights);
}

TEST_CASE("switching to typed Q, K, V keeps the projections", "[teach]") {
    HandSpec spec = notes_worked_example();
    const auto before = hand_attention(spec);
    set_hand_input(spec, HandInput::qkv);
    CHECK(spec.input == HandInput::qkv);
    check_matrix(spec.q, {{2, 1}, {0, 1}});
    check_matrix(spec.v, {{1, 1}, {2, 3}});
    const auto after = hand_attention(spec);
    REQUIRE(before);
    REQUIRE(after);
    CHECK(after->context == before->context);
    set_hand_input(spec, HandInput::projected);  // back: X and the W were kept
    CHECK(spec.x == notes_worked_example().x);
}

TEST_CASE("resizing keeps the overlap, fills new cells and clamps the sizes", "[teach]") {
    HandSpec spec = notes_worked_example();
    resize_hand_spec(spec, 3, 9, 0);  // C clamps to 4, D to 2
    CHECK(spec.n_tokens() == 3);
    CHECK(spec.d_model() == 4);
    CHECK(spec.d_k() == 2);
    CHECK(spec.x.row(0) == (RowVec(4) << 1, 0, 1, 0).finished());
    CHECK(spec.x.row(2).isZero());
    CHECK(spec.w_q.rows() == 4);
    CHECK(spec.mask(0, 0) == 0.0f);              // the notes' blocked cell survives
    CHECK(spec.mask.row(2).minCoeff() == 1.0f);  // a new token may attend everywhere
    CHECK(spec.mask.col(2).minCoeff() == 1.0f);
    REQUIRE(hand_attention(spec));
    resize_hand_spec(spec, 1, 2, 5);
    CHECK(spec.n_tokens() == 2);
    CHECK(spec.d_k() == 4);
}

TEST_CASE("random presets are whole numbers from -2 to 2, fixed by the seed, in the mode's matrices only", "[teach]") {
    HandSpec a = notes_worked_example(), b = a, c = a;
    randomize_hand_spec(a, 7);
    randomize_hand_spec(b, 7);
    randomize_hand_spec(c, 8);
    CHECK(a.x == b.x);
    CHECK(a.w_v == b.w_v);
    CHECK((a.x != c.x || a.w_q != c.w_q || a.w_k != c.w_k || a.w_v != c.w_v));
    for (const Mat* m : {&a.x, &a.w_q, &a.w_k, &a.w_v})
        for (Eigen::Index i = 0; i < m->size(); ++i) {
            const float v = m->data()[i];
            CHECK(v == std::round(v));
            CHECK(std::abs(v) <= 2.0f);
        }
    CHECK(a.q.isZero());  // typed Q, K, V untouched in projected mode
    CHECK(a.mask == notes_worked_example().mask);
}

TEST_CASE("bad hand input gives a one-line error, never a crash", "[teach]") {
    HandSpec spec = notes_worked_example();
    spec.x(0, 1) = std::numeric_limits<float>::quiet_NaN();
    auto r = hand_attention(spec);
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("X(1, 2)") != std::string::npos);

    spec = notes_worked_example();
    spec.w_k(2, 0) = 5000.0f;  // beyond what may be typed
    r = hand_attention(spec);
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("W_K(3, 1)") != std::string::npos);

    spec = notes_worked_example();
    spec.w_v = Mat::Zero(2, 2);  // (C=3, D=2) expected
    r = hand_attention(spec);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "W_V must be (3, 2), not (2, 2)");

    spec = look_ahead_example();
    spec.mask = Mat::Ones(2, 2);  // T = 2 but Q, K, V have 3 rows
    CHECK_FALSE(hand_attention(spec));
    CHECK_FALSE(hand_attention(HandSpec{}));  // empty: sizes out of range
}
