// The playground's presets.
#include "teach/hand_presets.h"

#include "train/task_random.h"

#include <random>

namespace attnlab {

namespace {

Mat rows_of(std::initializer_list<std::initializer_list<float>> rows) {
    Mat m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
    Eigen::Index r = 0;
    for (const auto& row : rows) {
        Eigen::Index c = 0;
        for (float v : row) m(r, c++) = v;
        ++r;
    }
    return m;
}

}  // namespace

HandSpec notes_worked_example() {
    HandSpec s;
    s.input = HandInput::projected;
    s.x = rows_of({{1, 0, 1}, {0, 1, 0}});      // (T=2, C=3)
    s.w_q = rows_of({{1, 0}, {0, 1}, {1, 1}});  // (C=3, D=2)
    s.w_k = rows_of({{1, 1}, {0, 1}, {1, 0}});
    s.w_v = rows_of({{1, 0}, {2, 3}, {0, 1}});
    s.mask = rows_of({{0, 1}, {1, 1}});  // query 1 sees key 2 only
    resize_hand_spec(s, 2, 3, 2);        // the typed Q, K, V: zeros of (2, 2)
    return s;
}

HandSpec look_ahead_example() {
    HandSpec s;
    s.input = HandInput::qkv;
    s.q = rows_of({{1, 0, 1, 0}, {0, 2, 0, 0}, {1, 1, 1, 1}});  // (T=3, D=4)
    s.k = rows_of({{1, 0, 1, 0}, {0, 1, 0, 1}, {2, 0, 0, 0}});
    s.v = rows_of({{1, 2, 0, 0}, {3, 0, 1, 0}, {0, 0, 0, 4}});
    s.mask = causal_mask(3);
    // Projected, the same numbers: X = I (3, 3) and each W is the typed matrix, so X·W_Q = Q.
    s.x = Mat::Identity(3, 3);
    s.w_q = s.q, s.w_k = s.k, s.w_v = s.v;
    return s;
}

void randomize_hand_spec(HandSpec& spec, uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto fill = [&](Mat& m) {
        for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(draw_index(rng, 5)) - 2.0f;
    };
    if (spec.input == HandInput::projected)
        for (Mat* m : {&spec.x, &spec.w_q, &spec.w_k, &spec.w_v}) fill(*m);
    else
        for (Mat* m : {&spec.q, &spec.k, &spec.v}) fill(*m);
}

}  // namespace attnlab
