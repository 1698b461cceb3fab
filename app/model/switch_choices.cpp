// Each value tried on a copy of the config: the core's validation decides what the switches offer.
#include "switch_choices.h"

namespace attnlab::gui {

namespace {

// The values of `field` in `order` that validate_config accepts on a copy of `config`, and `config`'s own.
template <class T>
std::vector<T> accepted(const ModelConfig& config, T ModelConfig::*field, const std::vector<T>& order) {
    std::vector<T> choices;
    for (const T& value : order) {
        ModelConfig tried = config;
        tried.*field = value;
        if (value == config.*field || validate_config(tried)) choices.push_back(value);
    }
    return choices;
}

}  // namespace

std::vector<bool> norm_placement_choices(const ModelConfig& config) {
    return accepted(config, &ModelConfig::norm_first, {false, true});
}

std::vector<Activation> activation_choices(const ModelConfig& config) {
    return accepted(config, &ModelConfig::activation,
                    {Activation::relu, Activation::gelu, Activation::gelu_tanh, Activation::silu});
}

}  // namespace attnlab::gui
