// A Hugging Face config.json (its model_type one of hf_model_types(), below) as the ModelConfig our
// engine runs.
//   gpt2: decoder_only, pre-LN, final LayerNorm ln_f, learned positions, unscaled embeddings,
//         tied unembedding; fields n_embd, n_head, n_layer, n_positions, vocab_size (required),
//         n_inner (4·n_embd), activation_function (gelu_new), layer_norm_epsilon (1e-5),
//         bos_token_id/eos_token_id (none), tie_word_embeddings (true). No padding token.
//   bert: encoder_only, post-LN, learned positions + token types, embedding LayerNorm, no final
//         LayerNorm; fields hidden_size, num_attention_heads, num_hidden_layers,
//         intermediate_size, max_position_embeddings, vocab_size (required), type_vocab_size (2),
//         hidden_act (gelu), layer_norm_eps (1e-12), pad_token_id (0), tie_word_embeddings (true).
//         Its output_head is transform (the MLM head); load_hf_folder makes it none for a file
//         without one.
//   llama, mistral, qwen2, qwen3 (the Llama template): decoder_only, pre-norm RMSNorm blocks and a final RMSNorm,
//         rotary positions, a SwiGLU FFN, grouped-query attention; fields hidden_size, num_attention_heads,
//         num_hidden_layers, intermediate_size, max_position_embeddings, vocab_size (required),
//         num_key_value_heads (H), head_dim (C/H), hidden_act (silu), rms_norm_eps (1e-6), rope_theta (10000),
//         rope_scaling (null; linear or llama3), attention_bias and mlp_bias (false; qwen2: Q, K, V biases always),
//         tie_word_embeddings (false), sliding_window (mistral; null: none), bos/eos/pad_token_id (none; eos may
//         be a list, whose first id is taken).
// Settings this engine cannot run (another position_embedding_type, GPT-2's attention-scale
// switches, cross-attention, rope_scaling other than linear and llama3, Qwen's use_sliding_window) are refused,
// never ignored.
#pragma once

#include "config.h"
#include "result.h"

#include <string_view>
#include <vector>

namespace attnlab {

// Errors are one line naming the field, e.g. `unsupported model_type "xlnet" (supported: gpt2, bert, …)`,
// `missing field "n_embd"`; the caller prefixes the file's path.
Result<ModelConfig> config_from_hf_json(std::string_view json_text);

// The model_type values config_from_hf_json accepts, in the order its "supported:" list names them.
std::vector<std::string_view> hf_model_types();

}  // namespace attnlab
