#include "attribution_tool.h"

#include "analysis/token_ranking.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace attnlab::gui {

namespace {

int layers_of(const ModelConfig& config, Stack stack) {
    return stack == Stack::decoder ? config.n_decoder_layers : config.n_encoder_layers;
}

// The attentions of `stack` in layer order: self, then cross (an encoder-decoder's decoder).
std::vector<AttentionSite> attention_rows(const ModelConfig& config, Stack stack) {
    std::vector<AttentionSite> rows;
    const bool decoder = stack == Stack::decoder;
    const AttentionUse self = decoder ? AttentionUse::decoder_self : AttentionUse::encoder_self;
    for (int l = 0; l < layers_of(config, stack); ++l) {
        rows.push_back({self, l});
        if (decoder && config.arch == Arch::encoder_decoder) rows.push_back({AttentionUse::cross, l});
    }
    return rows;
}

}  // namespace

Result<AttributionMetric> resolve_metric(const Tensor& logits, const AttributionChoice& choice) {
    const int64_t N = logits.dim(0), V = logits.dim(1);
    AttributionMetric m;
    m.kind = choice.kind;
    m.position = choice.position < 0 ? N - 1 : choice.position;
    if (m.position >= N)
        return Error{"position " + std::to_string(m.position) + " is past the last (" + std::to_string(N - 1) + ")"};
    const std::vector<TokenScore> top = rank_tokens(logits.row(m.position), 2);
    m.token = choice.token < 0 ? top.at(0).id : choice.token;
    const bool diff = choice.kind == AttributionMetricKind::logit_diff;
    if (diff) m.other = choice.other >= 0 ? choice.other : top.at(top.at(0).id == m.token && top.size() > 1 ? 1 : 0).id;
    for (int id : {m.token, diff ? m.other : 0})
        if (id >= V)
            return Error{"token id " + std::to_string(id) + " is not in the vocabulary (ids 0 to " +
                         std::to_string(V - 1) + ")"};
    return m;
}

bool AttributionTool::update(const Stepper& stepper, const AttributionChoice& choice) {
    const TraceEntry* logits =
        stepper.config().output_head == OutputHead::none ? nullptr
                                                         : stepper.entry(StepId::head(StepKind::logits, stepper.config()));
    const uint64_t version = logits ? logits->version : 0;
    if (version == logits_version_ && choice == choice_ && (attribution_ || !error_.empty())) return false;
    logits_version_ = version;
    choice_ = choice;
    attribution_.reset();
    tokens_.clear();
    grid_ = {};
    layers_ = {};
    error_.clear();
    if (!logits) {
        error_ = stepper.config().output_head == OutputHead::none ? "this model has no output head"
                                                                   : "the forward pass has not reached the logits yet";
        return true;
    }
    auto metric = resolve_metric(logits->value, choice);
    if (!metric) {
        error_ = metric.error().message;
        return true;
    }
    auto a = attribute_logits(stepper, *metric);
    if (!a) {
        error_ = a.error().message;
        return true;
    }
    attribution_ = std::move(*a);
    derive(stepper.config());
    return true;
}

void AttributionTool::derive(const ModelConfig& config) {
    const Stack stack = StepId::head(StepKind::logits, config).stack;
    const size_t L = static_cast<size_t>(layers_of(config, stack));
    grid_.rows = attention_rows(config, stack);
    grid_.heads = config.n_heads;
    grid_.total.assign(grid_.rows.size() * static_cast<size_t>(grid_.heads), 0.0);
    layers_.ffn.assign(L, 0.0);
    layers_.attention_bias.assign(L, 0.0);
    layers_.norm_bias.assign(L, 0.0);
    for (const AttributionComponent& c : attribution_->components) {
        const bool in_layer = c.layer >= 0 && static_cast<size_t>(c.layer) < L;
        switch (c.kind) {
            case ComponentKind::head: {
                const auto row = std::find(grid_.rows.begin(), grid_.rows.end(), AttentionSite{c.use, c.layer});
                if (row != grid_.rows.end() && c.head < grid_.heads)
                    grid_.total[static_cast<size_t>(row - grid_.rows.begin()) * static_cast<size_t>(grid_.heads) +
                                static_cast<size_t>(c.head)] += c.value;
                break;
            }
            case ComponentKind::embedding: layers_.embeddings += c.value; break;
            case ComponentKind::ffn:
                if (in_layer) layers_.ffn[static_cast<size_t>(c.layer)] += c.value;
                break;
            case ComponentKind::attention_bias:
                if (in_layer) layers_.attention_bias[static_cast<size_t>(c.layer)] += c.value;
                break;
            case ComponentKind::norm_bias:
                if (in_layer)
                    layers_.norm_bias[static_cast<size_t>(c.layer)] += c.value;
                else
                    layers_.end_bias += c.value;
                break;
            case ComponentKind::head_transform_bias:
            case ComponentKind::unembedding_bias: layers_.end_bias += c.value; break;
        }
    }
    for (double v : grid_.total) grid_.max_abs = std::max(grid_.max_abs, std::fabs(v));
}

std::vector<double> AttributionTool::per_source(const AttentionSite& site, int head) const {
    if (!ready() || std::find(grid_.rows.begin(), grid_.rows.end(), site) == grid_.rows.end()) return {};
    size_t n = 0;
    for (const AttributionComponent& c : attribution_->components)
        if (c.kind == ComponentKind::head && AttentionSite{c.use, c.layer} == site)
            n = std::max(n, static_cast<size_t>(c.source) + 1);
    std::vector<double> out(n, 0.0);
    for (const AttributionComponent& c : attribution_->components)
        if (c.kind == ComponentKind::head && c.head == head && AttentionSite{c.use, c.layer} == site)
            out[static_cast<size_t>(c.source)] += c.value;
    return out;
}

std::optional<std::pair<size_t, int>> AttributionTool::strongest_head() const {
    std::optional<std::pair<size_t, int>> best;
    double best_abs = -1.0;
    for (size_t r = 0; r < grid_.rows.size(); ++r)
        for (int h = 0; h < grid_.heads; ++h)
            if (std::fabs(grid_.at(r, h)) > best_abs) {
                best_abs = std::fabs(grid_.at(r, h));
                best = std::make_pair(r, h);
            }
    return best;
}

const Result<ComponentTokens>& AttributionTool::tokens(const Stepper& stepper, const ComponentRef& component) {
    const auto key = component.ffn ? std::make_tuple(true, static_cast<int>(component.stack), component.layer, 0, 0)
                                   : std::make_tuple(false, static_cast<int>(component.site.use),
                                                     component.site.layer, component.head, 0);
    auto it = tokens_.find(key);
    if (it == tokens_.end()) {
        Result<ComponentTokens> r = ready() ? component_tokens(stepper, component, metric().position, 5)
                                            : Result<ComponentTokens>(Error{error_});
        it = tokens_.emplace(key, std::move(r)).first;
    }
    return it->second;
}

}  // namespace attnlab::gui
