// The stages of one multi-head attention: Q, K, V, (the norms of Q and K, their rotation,) QKᵀ, ÷√D, mask,
// softmax, ·V, concat, W^O.
#include "forward/graph_builder.h"
#include "forward/linear_map.h"
#include "ops/attention.h"
#include "ops/rms_norm.h"
#include "ops/rotary.h"
#include "ops/softmax.h"

#include <cstdio>

namespace attnlab {

namespace {

// The heads of one attention that the user switched off.
const std::set<int>& ablated_of(const ForwardInputs& inputs, const AttentionSite& site) {
    static const std::set<int> none;
    const auto it = inputs.ablated_heads.find(site);
    return it == inputs.ablated_heads.end() ? none : it->second;
}

}  // namespace

std::string rope_variant(const RopeConfig& rope) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "rope theta=%.9g scaling=%s factor=%.9g low=%.9g high=%.9g original=%d",
                  static_cast<double>(rope.theta), to_string(rope.scaling).c_str(), static_cast<double>(rope.factor),
                  static_cast<double>(rope.low_freq_factor), static_cast<double>(rope.high_freq_factor),
                  rope.original_max_position);
    return buf;
}

StepId GraphBuilder::attention(const AttentionSite& site, const AttentionParams& params, const StepId& q_input,
                               const StepId& kv_input, const StepId& mask) {
    auto at = [&site](AttentionStage stage) { return StepId::attention_at(site, stage); };
    // The split and the scale depend on H and D, which no parameter shape pins down.
    // The split and the scale depend on H, H_kv and D, which no parameter shape pins down.
    const int H = config_.n_heads, H_kv = config_.kv_heads();
    const std::string heads = "H=" + std::to_string(H) + " D=" + std::to_string(config_.d_head()) +
                              (H_kv != H ? " H_kv=" + std::to_string(H_kv) : "");
    const char* letters[] = {"Q", "K", "V"};
    const char* names[] = {"Queries", "Keys", "Values"};
    const AttentionStage stages[] = {AttentionStage::q, AttentionStage::k, AttentionStage::v};
    const LinearParams* maps[] = {&params.q, &params.k, &params.v};
    for (int which = 0; which < 3; ++which) {
        const std::string L = letters[which];
        const LinearParams map = *maps[which];
        const int n_heads = which == 0 ? H : H_kv;
        const std::string split = which > 0 && H_kv != H
                                      ? ", split into H_kv heads of D (each shared by H/H_kv query heads)"
                                  : config_.head_dim > 0 ? ", split into H heads of D"
                                                         : ", split into H heads of D = C/H";
        add(at(stages[which]), {names[which] + std::string(" per head"),
                                L + " = " + linear_map_formula(map, "x", "W_" + L, "b_" + L) + split,
                                {which == 0 ? q_input : kv_input},
                                linear_map_param_names(map),
                                {},
                                heads,
                                [map, n_heads](const StepContext& ctx) {
                                    const CountedOutput x = linear_map_forward_counted(ctx.weights, map, ctx.input(0));
                                    // (B·T, ·) -> (B·H or B·H_kv, T, D): the same entries
                                    return StepOutput{split_heads(x.value, n_heads, ctx.inputs.batch), {},
                                                      x.non_finite};
                                },
                                [map](const BackwardContext& b) {
                                    const Tensor dy = merge_heads(b.d_output, b.inputs.batch);  // (B·T, H·D)
                                    return InputGrads{linear_map_backward(b.weights, map, b.input(0), dy, b.params)};
                                }});
    }
    StepId q = at(AttentionStage::q), k = at(AttentionStage::k);
    if (params.q_norm && params.k_norm) {  // qwen3: each head's row of Q and K through an RMSNorm of width D
        auto head_norm = [&](AttentionStage stage, const StepId& input, const NormParams& norm, const char* who,
                             const std::string& x) {
            const std::string g = norm.weight;
            return add(
                at(stage),
                {std::string("RMSNorm of each ") + who + " head",
                 x + " / √(mean(" + x + "²) + ε) · γ  (over the D numbers of one head)",
                 {input},
                 {g},
                 {},
                 eps_variant(config_.layer_norm_eps),
                 [g](const StepContext& ctx) {
                     return StepOutput{rms_norm_forward(ctx.input(0), ctx.param(g), ctx.config.layer_norm_eps), {}};
                 },
                 [g](const BackwardContext& b) {
                     return InputGrads{rms_norm_backward(b.input(0), b.param(g), b.config.layer_norm_eps, b.d_output,
                                                         b.param_grad(g))};
                 }});
        };
        q = head_norm(AttentionStage::q_norm, q, *params.q_norm, "query", "q");
        k = head_norm(AttentionStage::k_norm, k, *params.k_norm, "key", "k");
    }
    if (config_.positional == Positional::rotary) {
        const std::vector<float> frequencies = rope_inverse_frequencies(config_.rope, config_.d_head());
        auto rotate = [&](AttentionStage stage, const StepId& input, const std::string& letter) {
            const std::string x = letter == "Q" ? "q" : "k";
            return add(at(stage), {"Rotate " + letter + " by position (RoPE)",
                                   x + "'[i], " + x + "'[i+D/2] = " + x + "[i]·cos(pθ_i) − " + x +
                                       "[i+D/2]·sin(pθ_i), " + x + "[i+D/2]·cos(pθ_i) + " + x + "[i]·sin(pθ_i)",
                                   {input},
                                   {},
                                   {},
                                   rope_variant(config_.rope),
                                   [frequencies](const StepContext& ctx) {
                                       return StepOutput{apply_rotary(ctx.input(0), frequencies, ctx.first_row), {}};
                                   },
                                   [frequencies](const BackwardContext& b) {  // every row, from position 0
                                       return InputGrads{apply_rotary_backward(b.d_output, frequencies, 0)};
                                   }});
        };
        q = rotate(AttentionStage::q_rot, q, "Q");
        k = rotate(AttentionStage::k_rot, k, "K");
    }
    add(at(AttentionStage::scores),
        {"Scores QKᵀ",
         H_kv == H ? "scores[h] = Q[h]·K[h]ᵀ" : "scores[h] = Q[h]·K[g(h)]ᵀ, g(h) = ⌊h·H_kv/H⌋",
         {q, k},
         {},
         {},
         "",
         [](const StepContext& ctx) {
             return StepOutput{attention_scores(ctx.input(0), ctx.input(1)), {}};
         },
         [](const BackwardContext& b) {
             ScoresGrads g = attention_scores_backward(b.input(0), b.input(1), b.d_output);
             return InputGrads{std::move(g.dq), std::move(g.dk)};
         }});
    add(at(AttentionStage::scaled), {"Scale by 1/√D",
                                     "scaled = scores / √D",
                                     {at(AttentionStage::scores)},
                                     {},
                                     {},
                                     heads,
                                     [](const StepContext& ctx) {
                                         Tensor out = own_first_input(ctx);
                                         scale_scores_in_place(out, static_cast<float>(ctx.config.d_head()));
                                         return StepOutput{std::move(out), {}};
                                     },
                                     [](const BackwardContext& b) {  // the same factor 1/√D
                                         Tensor d = b.d_output;
                                         scale_scores_in_place(d, static_cast<float>(b.config.d_head()));
                                         return InputGrads{std::move(d)};
                                     }});
    add(at(AttentionStage::masked), {"Apply the mask",
                                     "masked = scaled, with −∞ where M[i, j] = 0",
                                     {at(AttentionStage::scaled), mask},
                                     {},
                                     {},
                                     "",
                                     [](const StepContext& ctx) {
                                         Tensor out = own_first_input(ctx);
                                         mask_scores_in_place(out, ctx.input(1));
                                         return StepOutput{std::move(out), {}};
                                     },
                                     [](const BackwardContext& b) {  // nothing reaches the mask
                                         return InputGrads{mask_scores_backward(b.d_output, b.input(1)), Tensor{}};
                                     }});
    add(at(AttentionStage::weights),
        {"Softmax over keys",
         "weights[h, i, :] = softmax(masked[h, i, :])",
         {at(AttentionStage::masked)},
         {},
         {},
         "",
         [](const StepContext& ctx) {
             std::vector<int64_t> rows;  // rows of the (H·Tq, Tk) view
             Tensor w = own_first_input(ctx);
             softmax_rows_in_place(w, &rows);
             const int64_t n_queries = w.dim(1);
             std::vector<int64_t> query_rows;
             for (int64_t r : rows)
                 if (r < n_queries) query_rows.push_back(r);  // the mask is shared, so head 0 names them all
             return StepOutput{std::move(w), std::move(query_rows)};
         },
         [](const BackwardContext& b) { return InputGrads{softmax_rows_backward(b.output(), b.d_output)}; }});
    add(at(AttentionStage::context),
        {"Weighted sum of values",
         H_kv == H ? "context[h] = weights[h]·V[h]" : "context[h] = weights[h]·V[g(h)]",
         {at(AttentionStage::weights), at(AttentionStage::v)},
         {},
         {Control::ablation_of(site)},
         "",
         [site](const StepContext& ctx) {
             return StepOutput{
                 attention_context(ctx.input(0), ctx.input(1), ablated_of(ctx.inputs, site), ctx.inputs.batch), {}};
         },
         [site](const BackwardContext& b) {
             ContextGrads g = attention_context_backward(b.input(0), b.input(1), b.d_output,
                                                         ablated_of(b.inputs, site), b.inputs.batch);
             return InputGrads{std::move(g.d_weights), std::move(g.dv)};
         }});
    add(at(AttentionStage::concat),
        {"Concatenate heads",
         "concat = [context[0] | … | context[H−1]]",
         {at(AttentionStage::context)},
         {},
         {},
         "",
         [](const StepContext& ctx) {
             return StepOutput{merge_heads(ctx.input(0), ctx.inputs.batch), {}};
         },
         [H](const BackwardContext& b) { return InputGrads{split_heads(b.d_output, H, b.inputs.batch)}; }});
    return linear(at(AttentionStage::out), "Output projection W^O",
                  "out = " + linear_map_formula(params.out, "concat", "W_O", "b_O"), at(AttentionStage::concat),
                  params.out);
}

}  // namespace attnlab
