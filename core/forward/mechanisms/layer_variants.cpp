#include "forward/mechanisms/layer_variants.h"

#include <algorithm>

namespace attnlab {

namespace {

bool listed(const std::vector<int>& layers, int layer) {
    return std::find(layers.begin(), layers.end(), layer) != layers.end();
}

constexpr int kLocalMaskMark = 1;  // StepId::sublayer of a local mask

}  // namespace

bool is_local_layer(const ModelConfig& config, int layer) {
    return config.sliding_window > 0 && (config.local_layers.empty() || listed(config.local_layers, layer));
}

bool has_local_and_global_layers(const ModelConfig& config) {
    return config.sliding_window > 0 && !config.local_layers.empty();
}

int window_of_layer(const ModelConfig& config, int layer) {
    return is_local_layer(config, layer) ? config.sliding_window : 0;
}

std::optional<RopeConfig> rope_of_layer(const ModelConfig& config, int layer) {
    if (config.positional != Positional::rotary || listed(config.no_rope_layers, layer)) return std::nullopt;
    if (config.local_rope_theta > 0.0f && is_local_layer(config, layer)) {
        RopeConfig local;
        local.theta = config.local_rope_theta;
        return local;
    }
    return config.rope;
}

bool has_nope_layers(const ModelConfig& config) {
    return config.positional == Positional::rotary && !config.no_rope_layers.empty();
}

StepId local_mask_of(AttentionUse use) {
    StepId id = StepId::mask_of(use);
    id.sublayer = kLocalMaskMark;
    return id;
}

bool is_local_mask(const StepId& id) {
    return id.kind == StepKind::attention_mask && id.sublayer == kLocalMaskMark;
}

StepId mask_of_site(const ModelConfig& config, const AttentionSite& site) {
    if (site.use != AttentionUse::cross && has_local_and_global_layers(config) && is_local_layer(config, site.layer))
        return local_mask_of(site.use);
    return StepId::mask_of(site.use);
}

LayerKind layer_kind(const ModelConfig& config, const AttentionSite& site) {
    if (site.use == AttentionUse::cross) return {};
    return {window_of_layer(config, site.layer), has_nope_layers(config) && !rope_of_layer(config, site.layer),
            has_local_and_global_layers(config) || has_nope_layers(config)};
}

}  // namespace attnlab
