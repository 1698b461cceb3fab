// Each scheme tried on a copy of the config: the core's validation decides what the switch offers.
#include "position_choices.h"

namespace attnlab::gui {

std::vector<Positional> position_choices(const ModelConfig& config) {
    constexpr Positional kOrder[] = {Positional::sinusoidal, Positional::learned,          Positional::rotary,
                                     Positional::alibi,      Positional::relative_buckets, Positional::none};
    std::vector<Positional> choices;
    for (const Positional p : kOrder) {
        ModelConfig tried = config;
        tried.positional = p;
        if (p == config.positional || validate_config(tried)) choices.push_back(p);
    }
    return choices;
}

}  // namespace attnlab::gui
