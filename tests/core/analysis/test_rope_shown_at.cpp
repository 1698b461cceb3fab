// The RoPE view's tables follow the chosen layer (analysis/rope_view.h rope_shown_at): Gemma 3's local layer turns
// with its local base and its global layer with the model's, as PositionMechanism::rotated_at turns each; a NoPE
// layer shows the model's base.
#include "analysis/rope_view.h"
#include "forward/mechanisms/positions.h"
#include "hf/open_model.h"
#include "ops/rotary.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

using namespace attnlab;

namespace {

ModelConfig fixture_config(const std::string& name) {
    auto loaded = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/" + name);
    if (!loaded) FAIL(loaded.error().message);
    return loaded->model.config;
}

// The cosine of pair i's turn at position p as `layer` turns it: row e_i (x[i] = 1) rotated, read at x[i].
float traced_cos(const PositionMechanism& positions, int head_dim, int i, int64_t p, int layer) {
    Tensor e({1, head_dim});
    e.matrix().setZero();
    e.matrix()(0, i) = 1.0f;
    return positions.rotated_at(e, p, layer).matrix()(0, i);
}

}  // namespace

TEST_CASE("the RoPE view's angle table of a layer is the turn that layer gives", "[rope][rope_shown_at]") {
    const ModelConfig c = fixture_config("hf_gemma3");  // layer 0 local (θ 10000), layer 2 global
    const PositionMechanism positions(c);
    const int D = c.d_head(), P = 40;
    CHECK(rope_shown_at(c, 0).theta == c.local_rope_theta);
    CHECK(rope_shown_at(c, 2).theta == c.rope.theta);
    REQUIRE(c.local_rope_theta != c.rope.theta);
    for (const int layer : {0, 2}) {
        INFO("layer " << layer);
        const RopeAngleTable t = rope_angle_table(rope_inverse_frequencies(rope_shown_at(c, layer), D), P);
        for (int p : {1, 7, 39})
            for (int i = 0; i < D / 2; ++i)
                CHECK(t.cos(p, i) == Approx(traced_cos(positions, D, i, p, layer)).margin(1e-5));
    }
    // The global base at the local layer would be another table: its slower pairs turn at other angles.
    const RopeAngleTable global = rope_angle_table(rope_inverse_frequencies(c.rope, D), P);
    float largest = 0.0f;
    for (int i = 0; i < D / 2; ++i)
        largest = std::max(largest, std::abs(global.cos(39, i) - traced_cos(positions, D, i, 39, 0)));
    CHECK(largest > 0.1f);
}

TEST_CASE("a NoPE layer's tables show the model's base", "[rope][rope_shown_at]") {
    const ModelConfig c = fixture_config("hf_smollm3");  // layer 3 drops RoPE
    CHECK(rope_shown_at(c, 3) == c.rope);
    CHECK(rope_shown_at(c, 0) == c.rope);
}
