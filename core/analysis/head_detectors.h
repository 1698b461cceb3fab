// Head detectors: each self-attention head's induction, previous-token and duplicate-token score on
// a sequence of L random tokens repeated twice (Olsson et al., 2022; TransformerLens's detectors).
#pragma once

#include "config.h"
#include "forward/step_id.h"
#include "result.h"
#include "tensor.h"
#include "weights.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace attnlab {

// L ids drawn uniformly from [0, vocab_size) minus `excluded`, then the same L again: 2L ids.
// std::mt19937_64 with its own unbiased mapping (rejection, then modulo), so every standard library
// gives the same ids for a seed. Needs L ≥ 0 and at least one id of [0, vocab_size) not excluded.
std::vector<int> repeated_random_tokens(int vocab_size, int L, uint64_t seed, const std::vector<int>& excluded);

// Where the two copies sit in a sequence of N tokens: x_0 … x_{L−1} at p0 … p0+L−1, and again at
// p0+L … p0+2L−1 (p0 = first: the tokens before them, a BOS).
struct RepeatLayout {
    int64_t first = 0;   // p0
    int64_t length = 0;  // L
};

// Each a mean attention weight, in [0, 1] when the rows of the weights sum to 1.
struct HeadScores {
    // Over the second copy's queries q = p0+L+i, i = 0 … L−1: weights[q][p0+i+1], the key just after
    // the first occurrence of x_i (for i = L−1 that key is p0+L, the second copy's first token).
    float induction = 0.0f;
    float previous_token = 0.0f;   // over every query q ≥ 1 of the sequence: weights[q][q−1]
    float duplicate_token = 0.0f;  // over the second copy's queries q = p0+L+i: weights[q][p0+i]
};
// The keys are the positions above, as TransformerLens's induction stripe takes them: when a random
// token happens to occur twice within one copy, its other occurrences are not counted.

// weights (H, N, N) of a self-attention over a sequence laid out as `layout` (L ≥ 1, p0 + 2L ≤ N):
// one HeadScores per head.
std::vector<HeadScores> head_detector_scores(const Tensor& weights, const RepeatLayout& layout);

struct HeadDetectorOptions {
    std::optional<int> length;  // L ≥ 2; nullopt: 20, or fewer if max_len allows fewer
    uint64_t seed = 0;
    std::optional<int> bos;  // a token put before the copies (then p0 = 1); nullopt: none (p0 = 0)
};

struct HeadDetectorScores {
    // The sequence the model ran: [bos] x_0 … x_{L−1} x_0 … x_{L−1}. Its random ids exclude the model's
    // special tokens (pad, sos, eos, unk); an encoder-decoder's are below both vocabularies' sizes.
    std::vector<int> ids;
    RepeatLayout layout;
    struct Layer {
        AttentionSite attention;        // attention_name(attention): "decoder.layers.1.self_attn"
        std::vector<HeadScores> heads;  // H
    };
    // Every self-attention, in step order. A decoder-only model reads the sequence as its target, an
    // encoder-only one as its source; an encoder-decoder reads it on both sides, so the encoder's and the
    // decoder's self-attentions are both scored (the cross-attentions are not self-attentions).
    std::vector<Layer> layers;
};

// Runs the model on the repeated sequence, up to its last self-attention's weights, and scores every head.
// Errors: L < 2, 2L (+1 with a BOS) past max_len, a BOS outside the vocabulary, no id left to draw.
Result<HeadDetectorScores> detect_heads(const ModelConfig& config, const Weights& weights,
                                        const HeadDetectorOptions& options = {});

}  // namespace attnlab
