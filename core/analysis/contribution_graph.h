// The contribution graph: Ferrando & Voita's information flow routes ("Information Flow Routes: Automatically
// Interpreting Language Models at Scale", 2024), as Meta's LLM Transparency Tool computes and draws them
// (facebookresearch/llm-transparency-tool: routes/contributions.py get_contributions, routes/graph.py).
// Every residual add of a stack at position t is a sum whole = r_in + Σ_i m·c_i (m: the residual multiplier the add
// scales each sublayer's write by, StreamMultiplierMechanism; 1 but in Granite), its parts r_in and each m·c_i, and
// each part's share of it is its proximity to the whole (L1, the tool's distance_norm = 1):
//   proximity_i = max(ε, ‖whole‖₁ − ‖c_i − whole + δ‖₁),  ε = 1e-5,   share_i = proximity_i / Σ_k proximity_k,
// (δ = 1e-6: the tool's distance is torch's pairwise_distance, which adds its eps to the difference)
// the entering stream r_in being one of the parts, so a node's shares sum to 1.
//   attention: the parts are c[h, j] = w[h, t, j]·V[g(h), j]·W_O,hᵀ for every head h and key j (head_split.h; a
//              masked key's or an ablated head's part is 0 and gets ε, as in the tool), and r_in; the output bias
//              b_O is in the whole but is no part (the tool's decomposed_attn has no b_O). V is counted once
//              (the tool's decomposed_attn adds b_V to TransformerLens's hook_v, which already holds it).
//   FFN:       the parts are the FFN's output row and r_in.
// A post-LN block's whole is its sum before the norm. A cross-attention's keys are the encoder's positions.
// The route for a token (the tool's "graph", with "renormalize after threshold", its default): in each block, the
// parts with share ≤ τ are dropped and the rest renormalised to sum to 1; then from the token's last node, the
// kept edges are followed back through the blocks. Unlike the tool (one edge per query→key summed over heads, an
// attention self-edge merged with the residual edge), each head is its own edge, and a part that writes nothing
// (weight 0 or an ablated head) is never an edge; the nodes reached are the tool's.
#pragma once

#include "result.h"
#include "stepper.h"

#include <vector>

namespace attnlab {

enum class FlowBlockKind { attention, ffn };

// One residual add of the stack: the shares of its parts at every position.
struct FlowBlock {
    FlowBlockKind kind = FlowBlockKind::attention;
    int layer = 0;
    int sublayer = 1;                               // k of residual_k
    AttentionUse use = AttentionUse::decoder_self;  // attention blocks
    int64_t n_keys = 0;                             // attention: Tk (the encoder's S for cross-attention)
    std::vector<double> heads;                      // attention: (T, H, Tk) share of head h through key j at query t
    std::vector<uint8_t> writes;                    // attention: (T, H, Tk) 1 where w[h, t, j] ≠ 0 and the head is on
    std::vector<double> sublayer_share;             // FFN: (T,) the FFN output's share; attention: empty
    std::vector<double> residual;                   // (T,) the entering stream's share
};

struct ContributionShares {
    Stack stack = Stack::decoder;
    int64_t n_positions = 0;        // T
    int n_heads = 0;                // H
    std::vector<FlowBlock> blocks;  // in stream order; node (b, t) is the stream after block b, b = −1 the input
};

// For a stepper that has run the whole stack. Errors: the stack is not in the model or not computed, a batch.
Result<ContributionShares> contribution_shares(const Stepper& stepper, Stack stack);

enum class FlowEdgeKind { attention, cross_attention, ffn, residual };
const char* to_string(FlowEdgeKind kind);  // "attention", "cross_attention", "ffn", "residual"

struct FlowNode {
    int block = -1;  // the stream after block `block`; −1: the stack's input (the embeddings)
    int position = 0;
};

// An edge into node (block, to) from node (block − 1, from); a cross-attention edge's from is an encoder
// position (its route stops there).
struct FlowEdge {
    FlowEdgeKind kind = FlowEdgeKind::residual;
    int block = 0;
    int layer = 0;
    int head = -1;  // attention edges
    int from = 0;
    int to = 0;
    double share = 0.0;  // renormalised after the threshold
};

struct FlowRoute {
    int token = 0;
    double threshold = 0.0;
    std::vector<FlowNode> nodes;  // reached from (last block, token), the start first
    std::vector<FlowEdge> edges;  // each once
};

// Errors: the token is outside the positions, the threshold outside [0, 1].
Result<FlowRoute> flow_route(const ContributionShares& shares, int64_t token, double threshold);

}  // namespace attnlab
