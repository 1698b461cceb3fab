// ModelConfig: the shape and switches of a Transformer, read from and written to JSON
// with exactly the field names of the model file's __metadata__["config"].
#pragma once

#include "result.h"

#include <cstdint>
#include <string>

namespace attnlab {

enum class Arch { encoder_decoder, encoder_only, decoder_only };
enum class Activation { relu, gelu, gelu_tanh };  // gelu is the erf form
enum class Positional { sinusoidal, learned, none };
// Whose tensor names and weight layouts a model uses (param_names.h): ours (torch.nn.Transformer's
// state_dict), or those of a Hugging Face GPT-2 or BERT file (core/hf reads their folders).
enum class Family { transformer, gpt2, bert };
// linear: logits = x·Wᵀ + b.  transform: dense + activation + LayerNorm before it (BERT's MLM
// head).  none: the model ends at its stack output (a BERT file without a head).
enum class OutputHead { linear, transform, none };

struct ModelConfig {
    Arch arch = Arch::encoder_decoder;
    int d_model = 64;  // C
    int n_heads = 4;   // H; D = C / H
    int n_encoder_layers = 2;
    int n_decoder_layers = 2;
    int d_ff = 256;  // F
    Activation activation = Activation::relu;
    bool norm_first = false;  // false: LayerNorm(x + Sublayer(x)) (paper); true: x + Sublayer(LayerNorm(x))
    bool final_norm = true;   // a LayerNorm after each stack, as torch.nn.Transformer has
    Positional positional = Positional::sinusoidal;
    int max_len = 64;
    bool scale_embedding = true;  // multiply embeddings by √C
    bool tie_embeddings = false;  // the output projection reuses the (target) embedding
    float layer_norm_eps = 1e-5f;
    int src_vocab_size = 0;
    int tgt_vocab_size = 0;
    // Our models have all four in their vocabulary. A Hugging Face family's may be -1: the model
    // has no such token (GPT-2 has no padding token, so no id is ever read as padding).
    int pad_id = 0, sos_id = 1, eos_id = 2, unk_id = 3;
    Family family = Family::transformer;
    int type_vocab_size = 0;      // token-type (segment) embeddings added to the source, as BERT's; 0: none
    bool embedding_norm = false;  // a LayerNorm over the summed embeddings, as BERT's
    OutputHead output_head = OutputHead::linear;

    int d_head() const { return d_model / n_heads; }  // D
    bool has_encoder() const { return arch != Arch::decoder_only; }
    bool has_decoder() const { return arch != Arch::encoder_only; }
    // The vocabulary the output projection predicts over.
    int output_vocab_size() const { return arch == Arch::encoder_only ? src_vocab_size : tgt_vocab_size; }

    bool operator==(const ModelConfig&) const = default;
};

std::string to_string(Arch a);
std::string to_string(Activation a);
std::string to_string(Positional p);
std::string to_string(Family f);
std::string to_string(OutputHead h);

// Every field is required but the four after unk_id (family, type_vocab_size, embedding_norm,
// output_head), which default to our Transformer's; unknown fields are an error, so a typo
// cannot pass silently.
Result<ModelConfig> config_from_json(const std::string& json_text);
// Compact, fields in a fixed order; the four optional ones only when not their defaults, so
// our own models' JSON is what it always was.
std::string config_to_json(const ModelConfig& config);
Status validate_config(const ModelConfig& config);

// "tiny": C=64, H=4, 2+2 layers, F=256.  "base": the paper's C=512, H=8, 6+6, F=2048.
Result<ModelConfig> preset_config(const std::string& name, int src_vocab_size, int tgt_vocab_size);

}  // namespace attnlab
