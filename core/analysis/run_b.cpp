// Run B on A's input: A's tokens, those of A's edits B has a place for, then the extra heads.
#include "analysis/run_b.h"

#include "forward/step_path.h"

namespace attnlab {

namespace {

bool has_attention(const Stepper& s, const AttentionSite& site) {
    const ModelConfig& c = s.config();
    const int n_layers = stack_of(site.use) == Stack::encoder ? c.n_encoder_layers : c.n_decoder_layers;
    return site.layer >= 0 && site.layer < n_layers && s.find(StepId::attention_at(site, AttentionStage::context));
}

bool has_head(const Stepper& s, const AttentionHead& h) {
    return has_attention(s, h.site) && h.head >= 0 && h.head < s.config().n_heads;
}

}  // namespace

Result<RunB> make_run_b(const ForwardInputs& a, const ModelConfig& config, const Weights& weights,
                        const std::vector<AttentionHead>& extra, uint64_t first_version) {
    ForwardInputs tokens;
    tokens.src_ids = a.src_ids;
    tokens.tgt_ids = a.tgt_ids;
    if (config.type_vocab_size > 0) tokens.src_token_types = a.src_token_types;  // else B has no use for them
    auto created = Stepper::create(config, weights, std::move(tokens), first_version);
    if (!created) return Error{"B cannot read A's input: " + created.error().message};
    RunB b{std::move(*created)};
    Stepper& s = b.stepper;

    for (const auto& [use, cells] : a.mask_overrides) {
        if (!s.find(StepId::mask_of(use))) {
            b.dropped_mask_cells += static_cast<int>(cells.size());
            continue;
        }
        for (const auto& [cell, allowed] : cells)  // B reads A's tokens: A's cells fit B's mask
            if (!s.set_mask_cell(use, cell.first, cell.second, allowed)) ++b.dropped_mask_cells;
    }
    for (const auto& [site, heads] : a.ablated_heads)
        for (int head : heads) {
            if (has_head(s, {site, head}) && s.set_head_ablated(site, head, true)) continue;
            ++b.dropped_heads;
        }

    for (const AttentionHead& h : extra) {
        if (!has_attention(s, h.site)) return Error{"B has no attention " + attention_name(h.site)};
        if (!has_head(s, h))
            return Error{attention_name(h.site) + " has no head " + std::to_string(h.head) + " in B (heads 0.." +
                         std::to_string(s.config().n_heads - 1) + ")"};
        if (auto st = s.set_head_ablated(h.site, h.head, true); !st) return st.error();
    }
    return b;
}

}  // namespace attnlab
