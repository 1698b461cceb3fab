// The stages of one multi-head attention: Q, K, V, (the norms of Q and K, their rotation,) QKᵀ, ÷√D, mask,
// softmax, ·V, concat, W^O.
#include "forward/graph_builder.h"
#include "forward/linear_map.h"
#include "ops/attention.h"
#include "ops/softmax.h"

#include <cassert>
#include <cstdio>

namespace attnlab {

namespace {

// The heads of one attention that the user switched off.
const std::set<int>& ablated_of(const ForwardInputs& inputs, const AttentionSite& site) {
    static const std::set<int> none;
    const auto it = inputs.ablated_heads.find(site);
    return it == inputs.ablated_heads.end() ? none : it->second;
}

// The stage `scaled` over `scores`: ÷√D, or the family's own multiplier (ModelConfig::attention_scale: T5's 1,
// Gemma's query_pre_attn_scalar^−½, Granite's attention_multiplier).
Step scaled_step(const ModelConfig& config, const StepId& scores, const std::string& heads) {
    const float s = config.attention_scale;
    if (s > 0.0f) {
        char variant[32];  // s itself: the explanation shows it, the formula names it
        std::snprintf(variant, sizeof variant, " scale=%.9g", static_cast<double>(s));
        auto times_s = [s](Tensor t) {
            float* p = t.data.data();
            for (int64_t i = 0, n = t.numel(); i < n; ++i) p[i] *= s;
            return t;
        };
        return {"Scale by s",
                "scaled = scores · s",
                {scores},
                {},
                {},
                heads + variant,
                [times_s](const StepContext& ctx) { return StepOutput{times_s(own_first_input(ctx)), {}}; },
                [times_s](const BackwardContext& b) { return InputGrads{times_s(b.d_output)}; }};  // the same s
    }
    return {"Scale by 1/√D",
            "scaled = scores / √D",
            {scores},
            {},
            {},
            heads,
            [](const StepContext& ctx) {
                Tensor out = own_first_input(ctx);
                scale_scores_in_place(out, static_cast<float>(ctx.config.d_head()));
                return StepOutput{std::move(out), {}};
            },
            [](const BackwardContext& b) {  // the same factor 1/√D, in one pass (not a copy scaled in place)
                return InputGrads{scale_scores(b.d_output, static_cast<float>(b.config.d_head()))};
            }};
}

}  // namespace

StepId GraphBuilder::attention(const AttentionSite& site, const AttentionParams& params, const StepId& q_input,
                               const StepId& kv_input, const StepId& mask) {
    auto at = [&site](AttentionStage stage) { return StepId::attention_at(site, stage); };
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
        add(at(stages[which]),
            {names[which] + std::string(" per head"),
             L + " = " + linear_map_formula(map, "x", "W_" + L, "b_" + L) + split,
             {which == 0 ? q_input : kv_input},
             linear_map_param_names(map),
             {},
             heads,
             [map, n_heads](const StepContext& ctx) {
                 const CountedOutput x = linear_map_forward_counted(ctx.weights, map, ctx.input(0));
                 // (B·T, ·) -> (B·H or B·H_kv, T, D): the same entries
                 return StepOutput{split_heads(x.value, n_heads, ctx.inputs.batch), {}, x.non_finite};
             },
             [map](const BackwardContext& b) {
                 const Tensor dy = merge_heads(b.d_output, b.inputs.batch);  // (B·T, H·D)
                 return InputGrads{linear_map_backward(b.weights, map, b.input(0), dy, b.params)};
             }});
    }
    StepId q = at(AttentionStage::q), k = at(AttentionStage::k);
    if (head_norm_.on()) {  // qwen3: each head's row of Q and K through an RMSNorm of width D
        assert(params.q_norm && params.k_norm);
        q = add(head_norm_.step(site, AttentionStage::q_norm, q, *params.q_norm));
        k = add(head_norm_.step(site, AttentionStage::k_norm, k, *params.k_norm));
    }
    if (positions_.rotates_at(site.layer)) {  // not in a NoPE layer
        q = add(positions_.rotation_step(site, AttentionStage::q_rot, q));
        k = add(positions_.rotation_step(site, AttentionStage::k_rot, k));
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
    add(at(AttentionStage::scaled), scaled_step(config_, at(AttentionStage::scores), heads));
    StepId scored = at(AttentionStage::scaled);
    if (const auto bias = position_bias_.find(stack_of(site.use));
        bias != position_bias_.end() && score_bias_.biases(site.use))  // + the stack's position bias (ALiBi, T5)
        scored = add(score_bias_.biased_step(site, scored, bias->second));
    if (soft_cap_.caps_scores()) scored = add(soft_cap_.scores_step(site, scored));  // Gemma 2: c·tanh(x/c)
    const std::string read = to_string(scored.stage);  // scaled, biased (ALiBi, T5) or capped (Gemma 2)
    add(at(AttentionStage::masked), {"Apply the mask",
                                     "masked = " + read + ", with −∞ where M[i, j] = 0",
                                     {scored, mask},
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
             ContextGrads g = attention_context_backward(b.input(0), b.input(1), b.d_output, ablated_of(b.inputs, site),
                                                         b.inputs.batch);
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
    return add(
        at(AttentionStage::out),
        linear_map_step("Output projection W^O", "out = " + linear_map_formula(params.out, "concat", "W_O", "b_O"),
                        at(AttentionStage::concat), params.out));
}

}  // namespace attnlab
