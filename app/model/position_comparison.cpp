// The comparison's panels from the open model's config and weights (position_comparison.h).
#include "position_comparison.h"

#include "ops/rotary.h"
#include "param_names.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

bool has_layer(const std::vector<int>& layers, int layer) {
    return std::find(layers.begin(), layers.end(), layer) != layers.end();
}

// The scheme the chosen layer of the open model uses.
PositionScheme own_scheme(const ModelConfig& c, int layer) {
    switch (c.positional) {
        case Positional::sinusoidal: return PositionScheme::sinusoid;
        case Positional::learned: return PositionScheme::learned;
        case Positional::rotary: return has_layer(c.no_rope_layers, layer) ? PositionScheme::nope : PositionScheme::rope;
        case Positional::none: return PositionScheme::nope;
        case Positional::alibi: return PositionScheme::alibi;
        case Positional::relative_buckets: return PositionScheme::t5_bias;
    }
    return PositionScheme::nope;
}

// The layer's RoPE: a local layer of a model with its own local base turns by that base, unscaled (Gemma 3).
RopeConfig layer_rope(const ModelConfig& c, int layer) {
    if (c.local_rope_theta > 0.0f && has_layer(c.local_layers, layer)) {
        RopeConfig local;
        local.theta = c.local_rope_theta;
        return local;
    }
    return c.rope;
}

}  // namespace

AttentionUse comparison_attention_use(const ModelConfig& config) {
    return config.has_encoder() ? AttentionUse::encoder_self : AttentionUse::decoder_self;
}

int comparison_layers(const ModelConfig& config) {
    return config.has_encoder() ? config.n_encoder_layers : config.n_decoder_layers;
}

PositionComparison position_comparison(const ModelConfig& config, const Weights& weights, int n_positions, int layer,
                                       const Tensor* traced_bias) {
    PositionComparison out;
    out.n_positions = n_positions;
    out.panels.push_back(sinusoid_panel(n_positions, config.d_model, config.sinusoid_layout));
    out.panels.back().from_model = config.positional == Positional::sinusoidal;
    const Stack first_stack = config.has_encoder() ? Stack::encoder : Stack::decoder;
    if (config.positional == Positional::learned)
        if (const std::shared_ptr<const Tensor> table = weights.shared(embedding_params(config, first_stack).positions))
            if (auto learned = learned_panel(*table, n_positions)) out.panels.push_back(std::move(*learned));
    const bool rotary = config.positional == Positional::rotary;
    const RopeConfig rope = rotary ? layer_rope(config, layer) : RopeConfig{};
    out.panels.push_back(rope_panel(n_positions, rope_inverse_frequencies(rope, config.d_head()), rotary));
    out.panels.push_back(nope_panel(n_positions));
    const bool t5 = config.positional == Positional::relative_buckets;  // else T5's own 32 buckets up to 128
    out.panels.push_back(t5_bucket_panel(n_positions, config.has_encoder(), t5 ? config.relative_buckets : 32,
                                         t5 ? config.relative_max_distance : 128));
    out.panels.back().from_model = t5;
    if (t5 && traced_bias && traced_bias->rank() == 3 && traced_bias->dim(1) == n_positions)
        if (auto bias = t5_traced_bias_panel(*traced_bias, config.has_encoder())) out.panels.push_back(std::move(*bias));
    out.panels.push_back(alibi_panel(n_positions, config.n_heads, config.positional == Positional::alibi));
    const PositionScheme own = own_scheme(config, layer);
    for (size_t k = 0; k < out.panels.size(); ++k)
        if (out.panels[k].scheme == own) out.own_panel = static_cast<int>(k);
    for (size_t k = 0; k < out.panels.size() && out.own_panel < 0; ++k)  // a T5 before its bias has run: its buckets
        if (own == PositionScheme::t5_bias && out.panels[k].scheme == PositionScheme::t5_buckets)
            out.own_panel = static_cast<int>(k);
    return out;
}

ModelAttentionPick model_attention(const Stepper& stepper, int layer, int head) {
    const ModelConfig& c = stepper.config();
    ModelAttentionPick pick;
    pick.site = {comparison_attention_use(c), std::clamp(layer, 0, std::max(comparison_layers(c) - 1, 0))};
    pick.head = std::clamp(head, 0, std::max(c.n_heads - 1, 0));
    if (comparison_layers(c) > 0)
        pick.entry = stepper.entry(StepId::attention_at(pick.site, AttentionStage::weights));
    return pick;
}

}  // namespace attnlab::gui
