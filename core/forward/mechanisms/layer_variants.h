// Layers that differ from one another (ModelConfig::local_layers, sliding_window, no_rope_layers,
// local_rope_theta): which layers see only a window of keys (Gemma's and ModernBERT's local layers; every layer
// of a Mistral), which turn Q and K by RoPE and with which base (SmolLM3's NoPE layers, Gemma 3's local base).
// The one reader of those switches; the graph builder, the positions mechanism, the explanations and the views ask
// these functions.
#pragma once

#include "forward/step_id.h"

#include <optional>

namespace attnlab {

// Whether `layer`'s self-attention sees only a window of keys: a decoder's, those less than sliding_window positions
// back; an encoder's, those at most sliding_window/2 away on either side.
bool is_local_layer(const ModelConfig& config, int layer);
// Whether the model has local and global layers both: then the local ones read a second mask.
bool has_local_and_global_layers(const ModelConfig& config);
// The layer's window W (sliding_window), 0 for all keys.
int window_of_layer(const ModelConfig& config, int layer);
// The RoPE a layer turns Q and K with: nullopt when the model has no rotary positions or the layer is a NoPE
// layer; a local layer's turns with local_rope_theta (no scaling) when the config gives one.
std::optional<RopeConfig> rope_of_layer(const ModelConfig& config, int layer);
// Whether the model rotates in some layers and not in others (SmolLM3).
bool has_nope_layers(const ModelConfig& config);

// The mask of a use's local layers, masks.decoder_self_local (masks.encoder_self_local): the use's mask id marked
// local by its sublayer field, 1 (a mask id leaves it free; the global mask keeps 0).
StepId local_mask_of(AttentionUse use);
bool is_local_mask(const StepId& id);
// The mask the self-attention (or cross-attention) at `site` reads.
StepId mask_of_site(const ModelConfig& config, const AttentionSite& site);

// The layer's kind, as the attention grid tags it: local (with its window), global, and whether it is a NoPE layer.
struct LayerKind {
    int window = 0;     // > 0: a local layer seeing this many keys back
    bool nope = false;  // Q and K are not rotated (a rotary model's NoPE layer)
    bool mixed = false; // the model has layers of another kind, so the tag is worth showing
};
LayerKind layer_kind(const ModelConfig& config, const AttentionSite& site);

}  // namespace attnlab
