// Ready-made inputs for the playground: the study notes' worked example, a look-ahead example
// whose scaled scores are whole numbers, and seeded random whole numbers to practise on.
#pragma once

#include "teach/hand_attention.h"

#include <cstdint>

namespace attnlab {

// The worked example of the study notes (seed note 003), as a two-token self-attention:
// token 1 is the notes' query input x = [1, 0, 1], token 2 their key input [0, 1, 0];
// W_Q = [[1,0],[0,1],[1,1]] and W_K = [[1,1],[0,1],[1,0]] are theirs (C = 3, D = 2).
// Query 1 may see key 2 only, as the notes' query has a single key, and W_V's middle row makes
// token 2's value the notes' V = [2, 3]. Row 1 then works out as q·k = 1, 1/√2 ≈ 0.707,
// weight 1, output [2, 3].
HandSpec notes_worked_example();

// Three tokens, Q, K, V typed, d_k = 4 (so √d_k = 2), under the look-ahead mask.
HandSpec look_ahead_example();

// Fills the matrices the spec's input mode reads (X and the W, or Q, K, V) with whole numbers
// from −2 to 2 drawn from `seed`; sizes, mask and scaling stay as they are.
void randomize_hand_spec(HandSpec& spec, uint64_t seed);

}  // namespace attnlab
