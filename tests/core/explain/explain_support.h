// Helpers for the explanation tests: the bundled language files, every switch combination,
// and "this shown number is that value" at the precision it is shown with.
#pragma once

#include "../test_support.h"
#include "explain/explanation.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace attnlab::test {

inline const ExplanationTable& bundled_table(Language language) {
    static const Result<ExplanationTable> tables[] = {
        load_explanation_table(std::string(ATTNLAB_SOURCE_DIR) + "/assets", Language::english),
        load_explanation_table(std::string(ATTNLAB_SOURCE_DIR) + "/assets", Language::korean)};
    const Result<ExplanationTable>& t = tables[language == Language::korean ? 1 : 0];
    if (!t) FAIL(t.error().message);
    return *t;
}

// Every architecture × norm placement × activation × positions, each once with the embedding
// scale, final norm and tied output on and once with them off.
inline std::vector<ModelConfig> every_switch_combination() {
    std::vector<ModelConfig> configs;
    for (Arch arch : {Arch::encoder_decoder, Arch::encoder_only, Arch::decoder_only})
        for (bool norm_first : {false, true})
            for (Activation act : {Activation::relu, Activation::gelu, Activation::gelu_tanh})
                for (Positional pos : {Positional::sinusoidal, Positional::learned, Positional::none})
                    for (bool on : {false, true}) {
                        ModelConfig c = small_config();
                        c.arch = arch;
                        if (arch == Arch::encoder_only) c.n_decoder_layers = 0;
                        if (arch == Arch::decoder_only) c.n_encoder_layers = 0;
                        c.norm_first = norm_first;
                        c.activation = act;
                        c.positional = pos;
                        c.scale_embedding = c.final_norm = c.tie_embeddings = on;
                        configs.push_back(c);
                    }
    return configs;
}

// True when `shown` (as format_number or format_operand prints it) is `expected` rounded to
// the decimals shown, or to two significant digits in e-notation.
inline bool shows(std::string shown, double expected) {
    if (shown.size() > 2 && shown.front() == '(' && shown.back() == ')') shown = shown.substr(1, shown.size() - 2);
    if (shown == "nan") return std::isnan(expected);
    if (shown.find('e') != std::string::npos) return std::abs(std::stod(shown) - expected) <= 0.051 * std::abs(expected);
    const size_t dot = shown.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(shown.size() - dot - 1);
    return std::abs(std::stod(shown) - expected) <= 0.5001 * std::pow(10.0, -decimals) + 1e-9;
}

}  // namespace attnlab::test
