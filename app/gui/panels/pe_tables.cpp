// The positional view's cached tables and the hover formula of one PE value.
#include "panels/pe_tables.h"

#include "ops/positional.h"
#include "param_names.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>

namespace attnlab::gui {

namespace {

// Derived data, not UI state: what the tables were built from, so they are rebuilt only when it changes.
struct PeCache {
    Positional kind = Positional::none;
    int max_len = 0, d_model = 0;
    std::shared_ptr<const Tensor> learned;  // held, so a new table can never reuse its address
    PeTables tables;
    uint64_t next_version = 1;
};

std::vector<std::string> numbers(int64_t n) {
    std::vector<std::string> out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.push_back(std::to_string(i));
    return out;
}

}  // namespace

const PeTables& pe_tables(PanelContext& ctx) {
    const ModelConfig& config = ctx.config();
    const Weights& weights = ctx.stepper().weights();
    PeCache& c = ctx.caches.get<PeCache>();
    const bool learned = config.positional == Positional::learned;
    // the table under the family's own name (pos_embed.weight, GPT-2's wpe.weight, BERT's position_embeddings)
    const Stack stack = config.has_encoder() ? Stack::encoder : Stack::decoder;
    std::shared_ptr<const Tensor> table = learned ? weights.shared(embedding_params(config, stack).positions) : nullptr;
    if (c.tables.version != 0 && c.kind == config.positional && c.max_len == config.max_len &&
        c.d_model == config.d_model && c.learned == table)
        return c.tables;
    c.kind = config.positional;
    c.max_len = config.max_len;
    c.d_model = config.d_model;
    c.learned = table;
    PeTables& t = c.tables;
    t.pe =
        table ? *table : sinusoidal_encoding(config.max_len, config.d_model, config.sinusoid_layout);  // (max_len, C)
    t.similarity = Tensor({t.pe.dim(0), t.pe.dim(0)});  // (max_len, max_len)
    t.similarity.matrix().noalias() = t.pe.matrix() * t.pe.matrix().transpose();
    t.positions = numbers(t.pe.dim(0));
    t.dims = numbers(t.pe.dim(1));
    t.version = c.next_version++;
    return t;
}

std::string pe_formula(int pos, int j, int d_model, SinusoidLayout layout) {
    const SinusoidColumn column = sinusoid_column(j, d_model, layout);
    const int two_i = static_cast<int>(2 * column.pair);
    const double angle = pos / std::pow(10000.0, static_cast<double>(two_i) / d_model);
    const char* f = column.sine ? "sin" : "cos";
    const double value = column.sine ? std::sin(angle) : std::cos(angle);
    char text[160];
    if (layout == SinusoidLayout::interleaved)
        std::snprintf(text, sizeof text, "PE(%d, 2·%d%s) = %s(%d / 10000^(%d/%d)) = %s(%.4f) = %.4f", pos, two_i / 2,
                      column.sine ? "" : "+1", f, pos, two_i, d_model, f, angle, value);
    else
        std::snprintf(text, sizeof text, "PE(%d, %d) = %s(%d / 10000^(%d/%d)) = %s(%.4f) = %.4f", pos, j, f, pos, two_i,
                      d_model, f, angle, value);
    return text;
}

double pe_wavelength(int j, int d_model, SinusoidLayout layout) {
    const auto two_i = static_cast<double>(2 * sinusoid_column(j, d_model, layout).pair);
    return 2.0 * std::numbers::pi * std::pow(10000.0, two_i / d_model);
}

}  // namespace attnlab::gui
