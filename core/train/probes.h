// What a training run records besides its loss, to watch the model learn: the gradient norm of each
// layer's parameters (gradients shrinking or exploding with depth) and the mean attention entropy of
// every head on one fixed held-out pair (heads sharpening from near-uniform to a few keys).
//
// The entropies come from one forward pass of that pair through the model's step graph (GraphRun: a batch
// of one, no dropout), which keeps every head's weights: a few thousandths of a training step of 64 pairs,
// with no stepper, trace or on-demand stages. The gradient norms are of the step's
// own batch gradients, before Adam clips them.
#pragma once

#include "config.h"
#include "forward/step.h"
#include "forward/step_id.h"
#include "result.h"
#include "tensor.h"
#include "train/batch.h"
#include "train/gradients.h"
#include "weights.h"

#include <cstddef>
#include <string>
#include <vector>

namespace attnlab {

// A row of the gradient record: one part of the model, in the forward pass's order.
enum class ParamGroupKind { embeddings, encoder_layer, encoder_norm, decoder_layer, output_head };

struct ParamGroupId {
    ParamGroupKind kind = ParamGroupKind::embeddings;
    int layer = -1;  // encoder_layer and decoder_layer; -1 otherwise
    bool operator==(const ParamGroupId&) const = default;
};

struct ParamGroup {
    ParamGroupId id;
    std::vector<std::string> params;  // names in Weights and Gradients
};

// The parameters of `weights` the forward pass reads, each in exactly one group, for any family (by its names,
// param_names.h): the embeddings (token tables, learned positions, token types, their norm), each encoder layer, the
// encoder's final norm, each decoder layer, and the output head (the decoder's final norm, the head's transform and
// its unembedding; with tied embeddings the unembedding's gradient is the token table's, in the embeddings' row).
// Empty groups are left out; a group's names are sorted.
std::vector<ParamGroup> param_groups(const ModelConfig& config, const Weights& weights);

// √(Σ g²) over each group's parameters' gradients, in the groups' order.
std::vector<float> group_norms(const std::vector<ParamGroup>& groups, const Gradients& grads);

// The mean entropy of each head: −Σ_j p_ij ln p_ij over the keys j of a query row i, averaged over the
// rows that see a key (a fully masked row is all zeros and left out), in nats: 0 for a head whose every
// row is on one key, ln(keys) for one that spreads each row evenly. weights (H, Tq, Tk), or (1, H, Tq, Tk)
// as the batched attention keeps them. The Analysis view's head summary (head_stats) by the same formula.
std::vector<float> head_entropies(const Tensor& weights);

// The attentions of a model in the order its forward pass runs them: the encoder's self-attention by
// layer, then each decoder layer's self-attention (and cross-attention).
std::vector<AttentionSite> pass_attention_sites(const ModelConfig& config);

// What a head that spreads every row evenly over the keys it may see scores at `site` for a pair of
// S source and T target positions: ln S (encoder self, cross), the mean over rows i of ln(i + 1)
// (the decoder's causal self-attention).
float uniform_entropy(AttentionUse use, int S, int T);

struct SiteEntropy {
    AttentionSite site;
    std::vector<float> heads;  // H, head_entropies of its weights
    float uniform = 0.0f;      // uniform_entropy of the site for this pair
};

// One inference forward pass of `pair` (no dropout): each attention's head entropies, in
// pass_attention_sites' order. Errors as loss_and_gradients's (arch, ids, lengths).
Result<std::vector<SiteEntropy>> attention_entropies(const ModelConfig& config, const Weights& weights,
                                                     const TokenPair& pair);
// The same for one sequence (or pair) the caller has checked (any family: a decoder-only model reads tgt_ids).
std::vector<SiteEntropy> attention_entropies(const ModelConfig& config, const Weights& weights,
                                             const ForwardInputs& sequence);

// A run's record at points along it: each group's gradient norm and each head's entropy. A point is
// due every `every` steps (step 0, before any training, has entropies only: its gradient norms are NaN).
// Past kMaxPoints the stride doubles and every other point goes, so memory stays bounded; the first
// point (step 0) always stays. Flat arrays, so copying the record (the app's progress) is cheap.
class ProbeRecord {
public:
    static constexpr size_t kMaxPoints = 512;

    ProbeRecord() = default;
    ProbeRecord(std::vector<ParamGroupId> groups, std::vector<AttentionSite> sites, int n_heads, int every);

    bool due(int step) const { return every_ > 0 && step % every_ == 0; }
    // grad_norms: one per group, or empty (none computed: NaN); entropies: one per site, in sites' order.
    void add(int step, const std::vector<float>& grad_norms, const std::vector<SiteEntropy>& entropies);

    size_t size() const { return steps_.size(); }
    bool empty() const { return steps_.empty(); }
    int every() const { return every_; }
    const std::vector<ParamGroupId>& groups() const { return groups_; }
    const std::vector<AttentionSite>& sites() const { return sites_; }
    int n_heads() const { return n_heads_; }

    int step(size_t point) const { return steps_[point]; }
    float grad_norm(size_t point, size_t group) const { return grad_norms_[point * groups_.size() + group]; }
    float entropy(size_t point, size_t site, int head) const {
        return entropy_[(point * sites_.size() + site) * static_cast<size_t>(n_heads_) + static_cast<size_t>(head)];
    }
    float uniform_entropy(size_t site) const { return site < uniform_.size() ? uniform_[site] : 0.0f; }

private:
    std::vector<ParamGroupId> groups_;
    std::vector<AttentionSite> sites_;
    int n_heads_ = 0;
    int every_ = 0;
    std::vector<int> steps_;
    std::vector<float> grad_norms_;  // (points, groups)
    std::vector<float> entropy_;     // (points, sites, heads)
    std::vector<float> uniform_;     // (sites): the same pair at every point
};

}  // namespace attnlab
