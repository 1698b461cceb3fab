// The KV cache, sliding window and weight precision lines of the Model panel.
#include "panels/model_summary_text.h"

#include "i18n.h"
#include "panels/panel_context.h"

#include "forward/mechanisms/layer_variants.h"

#include <cstdio>

namespace attnlab::gui {

std::string kv_cache_text(const ModelConfig& config, size_t tokens, bool korean) {
    const double per_token = kv_cache_bytes_per_token(config);
    char line[160];
    std::snprintf(line, sizeof line, tr(korean, "KV cache: %s per token, %s for this prompt"),
                  format_bytes(per_token).c_str(), format_bytes(per_token * static_cast<double>(tokens)).c_str());
    return line;
}

std::string sliding_window_text(const ModelConfig& config, bool korean) {
    if (config.sliding_window <= 0) return "";
    char line[200];
    if (has_local_and_global_layers(config) && !config.has_decoder()) {  // ModernBERT's: ±W/2 around each token
        std::snprintf(line, sizeof line,
                      tr(korean, "Local layers (%d of %d): W = %d, each token sees the %d on either side of it"),
                      static_cast<int>(config.local_layers.size()), config.n_encoder_layers, config.sliding_window,
                      config.sliding_window / 2);
        return line;
    }
    if (has_local_and_global_layers(config)) {  // Gemma's: the window is the local layers' alone
        std::snprintf(line, sizeof line,
                      tr(korean, "Local layers (%d of %d): W = %d, each token sees itself and the %d before it"),
                      static_cast<int>(config.local_layers.size()),
                      config.has_decoder() ? config.n_decoder_layers : config.n_encoder_layers,
                      config.sliding_window, config.sliding_window - 1);
        return line;
    }
    std::snprintf(line, sizeof line, tr(korean, "Sliding window: W = %d, each token sees itself and the %d before it"),
                  config.sliding_window, config.sliding_window - 1);
    return line;
}

std::string weights_precision_text(const Weights& weights, const Weights& loaded, bool korean) {
    const WeightsPrecision p = weights_precision(weights, &loaded);
    char line[240];
    if (p.bf16_tensors == 0) {
        std::snprintf(line, sizeof line, tr(korean, "Weights: F32 (%s)"), format_bytes(double(p.f32_bytes)).c_str());
    } else {
        std::snprintf(line, sizeof line, tr(korean, "Weights: BF16 (%s, %lld tensors), F32 (%s, %lld tensors)"),
                      format_bytes(double(p.bf16_bytes)).c_str(), static_cast<long long>(p.bf16_tensors),
                      format_bytes(double(p.f32_bytes)).c_str(), static_cast<long long>(p.f32_tensors));
    }
    std::string text = line;
    if (p.widened_since_loaded > 0) {
        std::snprintf(line, sizeof line, tr(korean, "; %lld edited, now F32"),
                      static_cast<long long>(p.widened_since_loaded));
        text += line;
    }
    return text;
}

}  // namespace attnlab::gui
