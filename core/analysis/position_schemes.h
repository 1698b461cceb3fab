// The positional-encoding schemes side by side: for a sentence of N positions, what each scheme does to
// query i and key j, as an (N, N) picture (or one per head, (H, N, N)). Index [h, i, j]: row i the query,
// column j the key.
//   sinusoid:   PE_i·PE_j / (C/2) = (2/C)·Σ_k cos((i − j)·ω_k)   added to the embeddings; the same for the
//               paper's interleaved columns and Marian's halves (the dot product ignores the column order)
//   learned:    cos(P_i, P_j), the open model's table P (max_len, C)   added to the embeddings
//   RoPE:       (2/D)·Σ_k cos((i − j)·θ_k)   what the turn leaves of a q·k whose pairs all point alike;
//               nothing is added: q and k are turned in each attention
//   NoPE:       0 everywhere: nothing is added; only a causal mask orders the tokens
//   T5 buckets: bucket(j − i), and for an open T5 each head's bias table[bucket(j − i), h]   added to the scores
//   ALiBi:      −slope_h·(i − j) for j ≤ i (causal: keys after the query are masked)   added to the scores
#pragma once

#include "config.h"
#include "result.h"
#include "tensor.h"

#include <string>
#include <vector>

namespace attnlab {

enum class PositionScheme { sinusoid, learned, rope, nope, t5_buckets, t5_bias, alibi };
// Where a scheme acts: added once to the embeddings, added to every attention's scores, or neither (NoPE, and
// RoPE, which turns q and k instead).
enum class SchemeTarget { embeddings, scores, none };

struct SchemePanel {
    PositionScheme scheme = PositionScheme::sinusoid;
    std::string title;    // English, e.g. "Sinusoids: PE_i·PE_j / (C/2)"
    SchemeTarget added_to = SchemeTarget::embeddings;
    Tensor values;        // (H, N, N): [h, i, j] for query i and key j; H = 1 but for the per-head schemes
    float lo = 0.0f, hi = 1.0f;  // the range the picture is drawn over (the values', over the unmasked cells)
    bool causal = false;  // keys after the query are masked (their values are 0 and not in the range)
    bool from_model = false;  // from the open model's weights or settings, else the scheme's usual defaults
    std::vector<float> per_head;  // (H,): ALiBi's slopes; empty for the other schemes

    int heads() const { return values.empty() ? 0 : static_cast<int>(values.dim(0)); }
    int positions() const { return values.empty() ? 0 : static_cast<int>(values.dim(1)); }
    float at(int h, int i, int j) const { return values.slice(h)(i, j); }
};

std::string to_string(PositionScheme s);  // "sinusoid", "learned", "rope", "nope", "t5_buckets", "t5_bias", "alibi"
std::string to_string(SchemeTarget t);    // "embeddings", "scores", "none"

// The paper's sinusoids of width d_model (C).
SchemePanel sinusoid_panel(int n_positions, int d_model, SinusoidLayout layout = SinusoidLayout::interleaved);
// A learned table (P, C) of the open model: cos(P_i, P_j) for its first n_positions rows; refused when it has
// fewer rows than that, or is not a matrix.
Result<SchemePanel> learned_panel(const Tensor& table, int n_positions);
// θ_k (D/2,) as the model turns its pairs (ops/rotary.h's rope_inverse_frequencies).
SchemePanel rope_panel(int n_positions, const std::vector<float>& inverse_frequencies, bool from_model);
SchemePanel nope_panel(int n_positions);
// T5's buckets (ops/relative_buckets.h): bucket(j − i) of B = n_buckets up to max_distance, bidirectional (the
// encoder's) or looking back (the decoder's, causal).
SchemePanel t5_bucket_panel(int n_positions, bool bidirectional, int n_buckets, int max_distance);
// An open T5's learned bias, table (B, H) (relative_attention_bias): (H, N, N) table[bucket(j − i), h]; refused
// when the table is not (n_buckets, H).
Result<SchemePanel> t5_bias_panel(int n_positions, const Tensor& table, bool bidirectional, int n_buckets,
                                  int max_distance);

// The same from a run: the bias (H, N, N) an open T5's position_bias step added to its scores; refused when it is
// not square per head.
Result<SchemePanel> t5_traced_bias_panel(const Tensor& bias, bool bidirectional);
// ALiBi for n_heads heads, their slopes as ops/alibi.h gives them (BLOOM's): −slope_h·(i − j); the keys after the
// query, which the causal mask hides, are left out of the range.
SchemePanel alibi_panel(int n_positions, int n_heads, bool from_model);

}  // namespace attnlab
