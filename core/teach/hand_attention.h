// One attention head small enough to work by hand (the app's playground): T tokens, inputs of
// width C, d_k = d_v = D, every stage kept so that each number can be shown and explained.
//   Q = X·W_Q,  K = X·W_K,  V = X·W_V          (T, D)   or Q, K, V typed directly
//   scores  = QKᵀ                               (T, T)
//   scaled  = scores / √D                       (T, T)   (÷ 1 when the scaling is switched off)
//   masked  = scaled, −∞ where mask(i, j) = 0   (T, T)
//   weights = softmax of each row of masked     (T, T)
//   context = weights·V                         (T, D)
// W is written the way the paper writes it, (C, D), so that Q = X·W_Q; nn.Linear stores Wᵀ.
#pragma once

#include "result.h"
#include "tensor.h"

#include <cstdint>
#include <vector>

namespace attnlab {

// The sizes a hand calculation allows (tokens, input width, d_k) and the largest |value| typed.
inline constexpr int kHandMinSize = 2, kHandMaxSize = 4;
inline constexpr float kHandMaxAbs = 1000.0f;

enum class HandInput { qkv, projected };  // type Q, K, V; or type X, W_Q, W_K, W_V

struct HandSpec {
    HandInput input = HandInput::projected;
    bool scale = true;  // divide by √D, as the paper does; off shows what the division prevents
    Mat x;              // (T, C)
    Mat w_q, w_k, w_v;  // (C, D) each
    Mat q, k, v;        // (T, D) each, read when input == qkv
    Mat mask;           // (T, T): 1 = query i may attend to key j, 0 = blocked

    int n_tokens() const { return static_cast<int>(mask.rows()); }
    int d_model() const { return static_cast<int>(x.cols()); }
    int d_k() const { return static_cast<int>(q.cols()); }
};

struct HandAttention {
    Mat q, k, v;  // (T, D)
    Mat scores;   // (T, T)
    Mat scaled;   // (T, T)
    Mat masked;   // (T, T), −∞ where blocked
    Mat weights;  // (T, T), rows sum to 1; a row whose every key is blocked is all 0
    Mat context;  // (T, D)
    std::vector<int64_t> fully_masked_rows;
};

// Every stage of `spec`, computed with the engine's own attention kernels. An error names the
// first matrix whose shape is wrong or whose value is not finite or beyond ±kHandMaxAbs.
Result<HandAttention> hand_attention(const HandSpec& spec);

// Resizes every matrix of `spec` to T tokens, C input dims and D = d_k, each clamped to
// [kHandMinSize, kHandMaxSize]. Entries inside both shapes keep their values; new entries are
// 0, new mask cells 1 (allowed).
void resize_hand_spec(HandSpec& spec, int n_tokens, int d_model, int d_k);

// Switches what the user types. Switching to Q, K, V copies the current projections into them,
// so the numbers on screen stay the same and can now be edited one by one.
void set_hand_input(HandSpec& spec, HandInput input);

Mat all_allowed_mask(int n_tokens);  // (T, T) of 1
Mat causal_mask(int n_tokens);       // (T, T): 1 where key j ≤ query i

}  // namespace attnlab
