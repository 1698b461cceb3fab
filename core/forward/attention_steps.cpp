// The ten stages of one multi-head attention: Q, K, V, QKᵀ, ÷√D, mask, softmax, ·V, concat, W^O.
#include "forward/graph_builder.h"
#include "forward/linear_map.h"
#include "ops/attention.h"
#include "ops/softmax.h"

namespace attnlab {

std::string GraphBuilder::attention(const AttentionSite& site, const AttentionParams& params,
                                    const std::string& q_input, const std::string& kv_input, const std::string& mask) {
    auto at = [&site](AttentionStage stage) { return StepId::attention_at(site, stage); };
    auto path = [&at](AttentionStage stage) { return step_path(at(stage)); };
    // The split and the scale depend on H and D, which no parameter shape pins down.
    const std::string heads = "H=" + std::to_string(config_.n_heads) + " D=" + std::to_string(config_.d_head());
    const char* letters[] = {"Q", "K", "V"};
    const char* names[] = {"Queries", "Keys", "Values"};
    const AttentionStage stages[] = {AttentionStage::q, AttentionStage::k, AttentionStage::v};
    const LinearParams* maps[] = {&params.q, &params.k, &params.v};
    for (int which = 0; which < 3; ++which) {
        const std::string L = letters[which];
        const LinearParams map = *maps[which];
        add(at(stages[which]),
            {names[which] + std::string(" per head"),
             L + " = " + linear_map_formula(map, "x", "W_" + L, "b_" + L) + ", split into H heads of D = C/H",
             {which == 0 ? q_input : kv_input},
             linear_map_param_names(map),
             {},
             heads,
             [map](const StepContext& ctx) {
                 const Tensor x = linear_map_forward(ctx.weights, map, ctx.input(0));  // (N, C)
                 return StepOutput{split_heads(x, ctx.config.n_heads), {}};            // (H, N, D)
             }});
    }
    add(at(AttentionStage::scores), {"Scores QKᵀ",
                                     "scores[h] = Q[h]·K[h]ᵀ",
                                     {path(AttentionStage::q), path(AttentionStage::k)},
                                     {},
                                     {},
                                     "",
                                     [](const StepContext& ctx) {
                                         return StepOutput{attention_scores(ctx.input(0), ctx.input(1)), {}};
                                     }});
    add(at(AttentionStage::scaled), {"Scale by 1/√D",
                                     "scaled = scores / √D",
                                     {path(AttentionStage::scores)},
                                     {},
                                     {},
                                     heads,
                                     [](const StepContext& ctx) {
                                         Tensor out = own_first_input(ctx);
                                         scale_scores_in_place(out, static_cast<float>(ctx.config.d_head()));
                                         return StepOutput{std::move(out), {}};
                                     }});
    add(at(AttentionStage::masked), {"Apply the mask",
                                     "masked = scaled, with −∞ where M[i, j] = 0",
                                     {path(AttentionStage::scaled), mask},
                                     {},
                                     {},
                                     "",
                                     [](const StepContext& ctx) {
                                         Tensor out = own_first_input(ctx);
                                         mask_scores_in_place(out, ctx.input(1));
                                         return StepOutput{std::move(out), {}};
                                     }});
    add(at(AttentionStage::weights),
        {"Softmax over keys",
         "weights[h, i, :] = softmax(masked[h, i, :])",
         {path(AttentionStage::masked)},
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
         }});
    add(at(AttentionStage::context), {"Weighted sum of values",
                                      "context[h] = weights[h]·V[h]",
                                      {path(AttentionStage::weights), path(AttentionStage::v)},
                                      {},
                                      {ablation_control(site)},
                                      "",
                                      [site](const StepContext& ctx) {
                                          const std::set<int> none;
                                          auto it = ctx.inputs.ablated_heads.find(site);
                                          const std::set<int>& ablated =
                                              it == ctx.inputs.ablated_heads.end() ? none : it->second;
                                          return StepOutput{attention_context(ctx.input(0), ctx.input(1), ablated), {}};
                                      }});
    add(at(AttentionStage::concat), {"Concatenate heads",
                                     "concat = [context[0] | … | context[H−1]]",
                                     {path(AttentionStage::context)},
                                     {},
                                     {},
                                     "",
                                     [](const StepContext& ctx) {
                                         return StepOutput{merge_heads(ctx.input(0)), {}};
                                     }});
    return linear(at(AttentionStage::out), "Output projection W^O",
                  "out = " + linear_map_formula(params.out, "concat", "W_O", "b_O"), path(AttentionStage::concat),
                  params.out);
}

}  // namespace attnlab
