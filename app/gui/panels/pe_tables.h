// The positional encoding of every position up to max_len, and PE·PEᵀ, kept between frames
// and recomputed only when the config or the learned table changes; plus the wave plot of
// two PE dimensions and the hover formula PE(pos, 2i) = sin(pos / 10000^(2i/C)).
#pragma once

#include "panels/panel_context.h"

#include <string>
#include <vector>

namespace attnlab::gui {

struct PeTables {
    Tensor pe;                           // (max_len, C): sinusoidal_encoding or pos_embed.weight
    Tensor similarity;                   // (max_len, max_len) = PE·PEᵀ
    std::vector<std::string> positions;  // "0" … "max_len−1"
    std::vector<std::string> dims;       // "0" … "C−1"
    uint64_t version = 0;                // changes whenever pe changes
};

// The tables of the live config and weights; positional must not be `none`.
const PeTables& pe_tables(PanelContext& ctx);

// "PE(3, 2·5) = sin(3 / 10000^(10/64)) = sin(0.7114) = 0.6530" for position pos, dimension j; in halves (Marian's
// layout) "PE(3, 5) = sin(…)" with the pair's 2i.
std::string pe_formula(int pos, int j, int d_model, SinusoidLayout layout = SinusoidLayout::interleaved);

// Dimension j's wavelength in positions: 2π·10000^(2i/C), i the pair it belongs to.
double pe_wavelength(int j, int d_model, SinusoidLayout layout);

// view.pe_dims over every position as curves, with sliders, axes, wavelengths and a legend.
// The first n_tokens positions (the sentence) are shaded.
void draw_pe_curves(PanelContext& ctx, const PeTables& tables, int n_tokens);

}  // namespace attnlab::gui
