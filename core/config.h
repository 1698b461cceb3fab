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

struct ModelConfig {
    Arch arch = Arch::encoder_decoder;
    int d_model = 64;           // C
    int n_heads = 4;            // H; D = C / H
    int n_encoder_layers = 2;
    int n_decoder_layers = 2;
    int d_ff = 256;             // F
    Activation activation = Activation::relu;
    bool norm_first = false;    // false: LayerNorm(x + Sublayer(x)) (paper); true: x + Sublayer(LayerNorm(x))
    bool final_norm = true;     // a LayerNorm after each stack, as torch.nn.Transformer has
    Positional positional = Positional::sinusoidal;
    int max_len = 64;
    bool scale_embedding = true;  // multiply embeddings by √C
    bool tie_embeddings = false;  // the output projection reuses the (target) embedding
    float layer_norm_eps = 1e-5f;
    int src_vocab_size = 0;
    int tgt_vocab_size = 0;
    int pad_id = 0, sos_id = 1, eos_id = 2, unk_id = 3;

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

// Every field is required; unknown fields are an error, so a typo cannot pass silently.
Result<ModelConfig> config_from_json(const std::string& json_text);
std::string config_to_json(const ModelConfig& config);  // compact, fields in a fixed order
Status validate_config(const ModelConfig& config);

// "tiny": C=64, H=4, 2+2 layers, F=256.  "base": the paper's C=512, H=8, 6+6, F=2048.
Result<ModelConfig> preset_config(const std::string& name, int src_vocab_size, int tgt_vocab_size);

}  // namespace attnlab
