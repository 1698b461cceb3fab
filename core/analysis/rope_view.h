// What rotary position embeddings (RoPE, ops/rotary.h) do in one head, from the trace: every pair's
// angle p·θ_i by position, one query's and one key's D/2 pairs as 2-D points before and after
// their turn, the score q_m·k_n as a function of the offset δ = m − n alone (checked by shifting both
// positions), and what rope_scaling does to the frequencies.
//   pair i of a row x (D,):  (x[i], x[i + D/2]),  turned at position p by p·θ_i
//   score(δ) = q·R(−δθ)·k / √D = Σ_i [(q_a·k_a + q_b·k_b)·cos(δθ_i) + (q_a·k_b − q_b·k_a)·sin(δθ_i)] / √D
//            with (q_a, q_b) and (k_a, k_b) pair i of the query and key before the turn; θ is the layer's own
//            (a local layer's base) and / √D the scaled stage's multiplier (Gemma's query_pre_attn_scalar^−½)
#pragma once

#include "config.h"
#include "forward/step_id.h"
#include "result.h"
#include "stepper.h"
#include "tensor.h"

#include <vector>

namespace attnlab {

// ---- (a) the angle table ----
struct RopeAngleTable {
    Mat angle;  // (P, D/2): p·θ_i as the model rounds it (float), wrapped into [0, 2π)
    Mat cos;    // (P, D/2): cos(p·θ_i)
};
// Positions 0 … n_positions − 1 against the pairs' θ_i (inverse_frequencies, (D/2,)).
RopeAngleTable rope_angle_table(const std::vector<float>& inverse_frequencies, int n_positions);
// The positions the view's tables span: the prompt's T, and at least 32 so the pattern shows.
int rope_table_positions(int n_tokens);
// The RoPE the view's θ line, angle tables and frequencies show for `layer`: the layer's own (a local layer's base,
// forward/mechanisms/layer_variants.h rope_of_layer), or the model's for a NoPE layer, which turns nothing.
RopeConfig rope_shown_at(const ModelConfig& config, int layer);

// ---- (d) the frequencies, before and after rope_scaling ----
// What the scaling did to one pair. llama3: kept (wavelength < L/high_freq_factor), divided by the
// factor (wavelength > L/low_freq_factor) or blended in between; linear: divided; none: unscaled.
enum class RopeBand { unscaled, kept, blended, divided };
struct RopePairFrequency {
    float theta = 0.0f;         // θ_i = theta^(−2i/D), radians per position, before the scaling
    float scaled_theta = 0.0f;  // after it: what the model uses
    double wavelength = 0.0;    // 2π/θ_i positions (one full turn)
    double scaled_wavelength = 0.0;
    RopeBand band = RopeBand::unscaled;
};
struct RopeFrequencies {
    RopeConfig rope;
    std::vector<RopePairFrequency> pairs;  // (D/2,)
    // llama3 only (0 otherwise): the band boundaries in positions, L = original_max_position.
    double low_freq_wavelength = 0.0;   // L / low_freq_factor: longer wavelengths are divided by the factor
    double high_freq_wavelength = 0.0;  // L / high_freq_factor: shorter ones are kept
};
RopeFrequencies rope_frequencies(const RopeConfig& rope, int head_dim);

// ---- (b), (c) one query and one key of one head, from the trace ----
struct RopeHeadRef {
    int layer = 0;
    int head = 0;   // the query head h; it reads K head kv_head_of(h, H, H_kv)
    int query = 0;  // m: the query's row (position)
    int key = 0;    // n: the key's row (position)
};
// The self-attention whose rotation the view shows: the first stack's (the encoder's when there is one).
AttentionUse rope_attention_use(const ModelConfig& config);

struct RopePairs {
    int kv_head = 0;
    // (D/2, 2) each: row i is pair i, (x[i], x[i + D/2]).
    Mat q, q_rot;  // the query before RoPE (the q_rot step's input: q, or qwen3's q_norm) and turned by m·θ_i
    Mat k, k_rot;  // the key likewise, turned by n·θ_i
    std::vector<float> q_angle, k_angle;  // (D/2,): m·θ_i and n·θ_i, as the model rounds them
    std::vector<float> contribution;      // (D/2,): q_rot_i · k_rot_i / √D, pair i's share of the score
};

struct RopeShiftCheck {
    int shift = 0;                // both positions moved by this: q at m + s, k at m − δ + s
    float max_difference = 0.0f;  // the largest |score_s(δ) − score(δ)| over every δ (float rounding)
    std::vector<float> scores;    // (2T − 1,): score_s(δ)
};

struct RopeScoreCurve {
    std::vector<int> offsets;   // (2T − 1,): δ = −(T − 1) … T − 1
    std::vector<float> scores;  // score(δ): q turned at m, k at m − δ (a position may be negative), ·/√D
    // (D/2, 2T − 1): pair i's term of score(δ), [A_i·cos(δθ_i) + B_i·sin(δθ_i)] / √D (the closed form above, in
    // double): fast pairs wiggle, slow ones drift; each column adds up to score(δ) but for rounding.
    Mat pair_waves;
    std::vector<RopeShiftCheck> shifts;
    int actual_offset = 0;           // m − n
    float at_actual = 0.0f;          // score(m − n) from the curve
    float traced_scaled = 0.0f;      // the trace's scaled[h, m, n]
    float traced_difference = 0.0f;  // |at_actual − traced_scaled|: 0 when the curve is the model's arithmetic
};

struct RopeView {
    RopeHeadRef ref;
    AttentionUse use = AttentionUse::decoder_self;
    int n_tokens = 0;                // T
    std::vector<float> frequencies;  // (D/2,) θ_i as the layer uses them (scaled; a local layer's base)
    RopePairs pairs;
    RopeScoreCurve curve;
};

// The head's pairs and score curve. Needs a rotary model whose stepper has run the layer's scaled scores;
// refuses a layer, head or row that is not there with a one-line message. `shifts`: the positions by
// which the check moves both the query and the key.
Result<RopeView> rope_view(const Stepper& stepper, const RopeHeadRef& ref, const std::vector<int>& shifts = {5, 100});

// score(δ) for every δ in `offsets` with q (D,) at position query_position and k (D,) at
// query_position − δ, each row turned as the model turns it and dotted as QKᵀ does (one fma chain), ·scale (1/√D,
// or the family's attention_scale).
std::vector<float> rope_score_curve(const float* q, const float* k, int head_dim,
                                    const std::vector<float>& inverse_frequencies, int64_t query_position,
                                    const std::vector<int>& offsets, float scale);

}  // namespace attnlab
