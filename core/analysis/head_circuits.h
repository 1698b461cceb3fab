// One attention head read from its weights alone, before any input ("A Mathematical Framework
// for Transformer Circuits", Elhage et al. 2021):
//   QK circuit  score(q, k) = (e_q·W_Q^h)·(e_k·W_K^h)ᵀ·s      which tokens attend to which (s: 1/√D, or the
//                                                            family's attention_scale)
//   OV circuit  logits(s)   = e_s·W_V^h·W_O^h·W_Uᵀ           what attending to token s writes, read as
//                                                            the unembedding's logits
// e is a token as the layer reads it when the residual stream holds that token alone: its row of
// the stack's token table (×√C when the model scales embeddings), through the embedding LayerNorm
// (BERT), then through the layer's pre-attention norm (pre-LN models, as GPT-2 and the Llama template). Positions
// and the maps' biases are left out (but RoPE, see qk_circuit): the circuits are the maps' bilinear parts.
// With grouped-query attention, head h reads K/V head h / (H / H_kv). W_U is the output
// head's last projection alone; a final LayerNorm or BERT's transform, not being linear, is skipped.
#pragma once

#include "config.h"
#include "param_names.h"
#include "result.h"
#include "tensor.h"
#include "weights.h"

#include <vector>

namespace attnlab {

struct HeadRef {
    Stack stack = Stack::encoder;
    int layer = 0;
    int head = 0;
};

// Rows `ids` of the stack's token table as the layer's self-attention reads them: (n, C).
Result<Mat> head_token_inputs(const ModelConfig& config, const Weights& weights, const HeadRef& ref,
                              const std::vector<int>& ids);

// The self-attention QK circuit over chosen tokens: (query_ids.size(), key_ids.size()) scaled scores. A model
// with rotary positions (RoPE) has no score without positions: its circuit is the one of a query `offset`
// positions after its key (q turned by offset·θ, k not turned; any other pair of positions that far apart gives
// the same numbers), with the layer's own RoPE: a local layer's base (Gemma 3), none in a NoPE layer (SmolLM3).
// Qwen3's RMSNorm of each head of Q and K is applied. Other models and NoPE layers ignore `offset`.
Result<Mat> qk_circuit(const ModelConfig& config, const Weights& weights, const HeadRef& ref,
                       const std::vector<int>& query_ids, const std::vector<int>& key_ids, int offset = 0);

// The OV circuit of source tokens: (source_ids.size(), output vocabulary) logits. Only for the
// stack that feeds the output head (the decoder of a model that has one).
Result<Mat> ov_circuit(const ModelConfig& config, const Weights& weights, const HeadRef& ref,
                       const std::vector<int>& source_ids);

std::vector<int> every_token(int vocab_size);  // 0, 1, ..., vocab_size − 1

}  // namespace attnlab
