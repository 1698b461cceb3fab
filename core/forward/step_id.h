// What a step is, as typed data: written by the graph builder for every step, read by
// everything else (explanations, the stepper's masks, the views, the compare tool). The
// step's path (step_path.h) is its user-visible name and is never parsed back.
#pragma once

#include "config.h"

#include <compare>
#include <optional>

namespace attnlab {

// The tokens a step's rows (or key columns) index.
enum class Sequence { source, target };

enum class StepKind {
    token_embedding,  // E[token] (·√C)                     (N, C)
    position,         // sinusoidal or learned positions     (N, C)
    token_type,       // BERT's segment embeddings           (S, C)
    embedding_sum,    // their sum                           (N, C)
    embedding_norm,   // BERT's LayerNorm over the sum       (N, C)
    padding_mask,     // keep_j = (token_j ≠ <pad>)          (N,)
    look_ahead_mask,  // tril                                (T, T)
    position_bias,    // what a stack's self-attentions add to their scores: T5's buckets, ALiBi's slopes (H, N, N)
    attention_mask,   // the mask one use of attention reads (N, M)
    attention,        // one stage of a multi-head attention (AttentionStage)
    residual,         // x + Sublayer(…) of sublayer k
    norm,             // the LayerNorm (or RMSNorm) of sublayer k (pre- or post-LN)
    post_norm,        // Gemma's norm of sublayer k's output, before it joins the residual
    ffn,              // one part of the position-wise FFN (FfnPart)
    stack_output,     // a stack's final LayerNorm (or RMSNorm), or its last layer's output
    head_transform,   // BERT's MLM head: dense C -> C
    head_activation,  //                  its activation
    head_norm,        //                  its LayerNorm
    logits,           // the unembedding (N, V)
    capped_logits,    // Gemma 2's soft-capped logits, c·tanh(logits/c) (N, V)
    probs,            // softmax of the logits (N, V)
};

enum class AttentionUse { encoder_self, decoder_self, cross };
// q_norm, k_norm: qwen3's RMSNorm of each head of Q and K; q_rot, k_rot: Q and K turned by RoPE. A model
// without them goes from v to scores. biased: the scaled scores plus the stack's position bias (T5, ALiBi);
// capped: soft-capped, c·tanh(x/c) (Gemma 2).
enum class AttentionStage {
    q,
    k,
    v,
    q_norm,
    k_norm,
    q_rot,
    k_rot,
    scores,
    scaled,
    biased,
    capped,
    masked,
    weights,
    context,
    concat,
    out
};
// hidden, activation, out: act(x·W_1ᵀ)·W_2ᵀ.  A gated FFN (SwiGLU): gate = x·W_gateᵀ, activation = act(gate),
// up = x·W_upᵀ, gated = activation ⊙ up, out = gated·W_downᵀ. A mixture of experts: router = x·W_routerᵀ
// (N, E), routing = the chosen experts' weights, 0 elsewhere (N, E).
enum class FfnPart { hidden, gate, activation, up, gated, out, router, routing };
// What the output head predicts at each row: the next token (decoder-only, encoder-decoder),
// or the token at that position (an encoder-only model's head, as BERT's masked-LM head).
enum class Prediction { next_token, masked_tokens };

// One multi-head attention of the model: its use and layer. Keys of the ablated heads.
struct AttentionSite {
    AttentionUse use = AttentionUse::encoder_self;
    int layer = 0;
    auto operator<=>(const AttentionSite&) const = default;
};

// Which step: two steps of one model with equal ids are the same step. Fields a kind does
// not use keep their defaults, so the constructors below are the way to name a step.
struct StepId {
    StepKind kind = StepKind::token_embedding;
    Stack stack = Stack::encoder;                   // the stack the step belongs to or feeds; the head: the last stack
    int layer = -1;                                 // layer steps (attention, residual, norm, ffn); -1 elsewhere
    int sublayer = 0;                               // residual, norm: k = 1 (self-attention), 2, 3 (FFN last)
    AttentionUse use = AttentionUse::encoder_self;  // attention, attention_mask
    AttentionStage stage = AttentionStage::q;       // attention
    FfnPart part = FfnPart::hidden;                 // ffn

    auto operator<=>(const StepId&) const = default;

    static StepId of(StepKind kind, Stack stack) { return {kind, stack}; }
    static StepId attention_at(AttentionSite site, AttentionStage stage);
    static StepId mask_of(AttentionUse use);
    static StepId ffn_at(Stack stack, int layer, FfnPart part) {
        return {StepKind::ffn, stack, layer, 0, {}, {}, part};
    }
    static StepId sublayer_at(StepKind residual_or_norm, Stack stack, int layer, int k) {
        return {residual_or_norm, stack, layer, k};
    }
    static StepId head(StepKind kind, const ModelConfig& config);  // head_*, logits, probs: on the last stack

    AttentionSite site() const { return {use, layer}; }  // attention steps
};

// For unordered maps keyed by step: every field mixed in.
struct StepIdHash {
    size_t operator()(const StepId& id) const;
};

// Everything the graph builder knows of a step besides its computation.
struct StepRecord {
    StepId id;
    Sequence rows = Sequence::source;    // the N of (N, ·), (H, N, ·) and (N,)
    std::optional<Sequence> keys;        // the M of an (N, M) mask or (H, N, M) score stage; nullopt when
                                         // the columns are features, dimensions or the vocabulary
    std::optional<Prediction> predicts;  // head steps, logits, probs

    // Derived from the id and the config: the only place these rules live.
    static StepRecord of(const StepId& id, const ModelConfig& config);
};

Stack stack_of(AttentionUse use);
Sequence sequence_of(Stack stack);
Prediction prediction_of(const ModelConfig& config);
bool is_score_stage(AttentionStage stage);  // scores, scaled, masked, weights: (H, N, M)
bool is_mask(StepKind kind);                // the padding, look-ahead and attention masks
const char* to_string(AttentionUse use);    // "encoder_self", "decoder_self", "cross"

}  // namespace attnlab
