// Steps that turn token ids into the model's input: token embeddings, positions, token types,
// their sum, and (BERT) a LayerNorm over it.
#include "forward/graph_builder.h"

#include <cassert>
#include <cmath>

namespace attnlab {

namespace {

const std::vector<int>& side_ids(const StepContext& ctx, Stack stack) {
    return stack == Stack::encoder ? ctx.inputs.src_ids : ctx.inputs.tgt_ids;
}

Tensor sum_tensors(const std::vector<const Tensor*>& parts) {
    Tensor out = *parts.at(0);
    for (size_t i = 1; i < parts.size(); ++i) {
        assert(parts[i]->shape == out.shape);
        out.matrix() += parts[i]->matrix();
    }
    return out;
}

}  // namespace

StepId stack_input(const ModelConfig& config, Stack stack) {
    const EmbeddingParams params = embedding_params(config, stack);
    if (params.norm) return StepId::of(StepKind::embedding_norm, stack);
    const bool summed = PositionMechanism(config).added_to_embeddings() || !params.token_types.empty();
    return StepId::of(summed ? StepKind::embedding_sum : StepKind::token_embedding, stack);
}

StepId GraphBuilder::embedding(Stack side) {
    const bool src = side == Stack::encoder;
    auto id = [side](StepKind kind) { return StepId::of(kind, side); };
    const EmbeddingParams params = embedding_params(config_, side);
    const std::string table = params.tokens;
    const Control ids_control = src ? kSrcIdsControl : kTgtIdsControl;
    // ·√C (the paper's), ·m_emb (Granite's embedding_multiplier)
    const float scale = (config_.scale_embedding ? std::sqrt(static_cast<float>(config_.d_model)) : 1.0f) *
                        multipliers_.embedding_multiplier();
    const std::string e = src ? "E_src" : "E_tgt";

    const StepId embed = add(id(StepKind::token_embedding),
                             {src ? "Source token embeddings" : "Target token embeddings",
                              "x_emb = " + e + "[token]" + (config_.scale_embedding ? "·√C" : "") +
                                  multipliers_.embedding_formula_part(),
                              {},
                              {table},
                              {ids_control},
                              multipliers_.embedding_variant(),
                              [side, table, scale](const StepContext& ctx) {
                                  const auto& ids = side_ids(ctx, side);
                                  const Tensor& E = ctx.param(table);                      // (V, C), F32 or BF16
                                  Tensor x({static_cast<int64_t>(ids.size()), E.dim(1)});  // (N, C)
                                  for (size_t i = 0; i < ids.size(); ++i) {
                                      assert(ids[i] >= 0 && ids[i] < E.dim(0));
                                      const int64_t r = static_cast<int64_t>(i);
                                      row_as_f32(E, ids[i], x.row(r).data());  // a BF16 row widened, exactly
                                      x.row(r) *= scale;
                                  }
                                  return StepOutput{std::move(x), {}};
                              },
                              [side, table, scale](const BackwardContext& b) {  // dE[token] += dx·scale
                                  const auto& ids = side == Stack::encoder ? b.inputs.src_ids : b.inputs.tgt_ids;
                                  Tensor& dE = b.param_grad(table);  // (V, C)
                                  for (size_t i = 0; i < ids.size(); ++i)
                                      dE.row(ids[i]) += b.d_output.row(static_cast<int64_t>(i)) * scale;
                                  return InputGrads{};
                              }});
    std::vector<StepId> parts = {embed};
    std::string sum_formula = "x = x_emb", sum_title = "Embedding";

    if (auto positions = positions_.embedding_step(side, params, ids_control))  // (B·T, C)
        parts.push_back(add(std::move(*positions)));
    sum_formula += positions_.sum_formula_part();
    sum_title += positions_.sum_title_part();

    if (!params.token_types.empty()) {
        assert(src && "token types belong to the source");
        const std::string types = params.token_types;
        parts.push_back(add(id(StepKind::token_type),
                            {"Token-type embeddings",
                             "x_type = E_type[type]  (type 0 where none is given)",
                             {},
                             {types},
                             {ids_control, kSrcTokenTypesControl},
                             "",
                             [types](const StepContext& ctx) {
                                 const auto& given = ctx.inputs.src_token_types;
                                 const Tensor& E = ctx.param(types);  // (type_vocab_size, C)
                                 Tensor x({static_cast<int64_t>(ctx.inputs.src_ids.size()), E.dim(1)});  // (S, C)
                                 for (int64_t i = 0; i < x.dim(0); ++i) {
                                     const int type =
                                         i < static_cast<int64_t>(given.size()) ? given[static_cast<size_t>(i)] : 0;
                                     assert(type >= 0 && type < E.dim(0));
                                     x.row(i) = E.row(type);
                                 }
                                 return StepOutput{std::move(x), {}};
                             },
                             [types](const BackwardContext& b) {  // dE_type[type] += dx
                                 const auto& given = b.inputs.src_token_types;
                                 Tensor& dE = b.param_grad(types);
                                 for (int64_t i = 0; i < b.d_output.dim(0); ++i)
                                     dE.row(i < static_cast<int64_t>(given.size()) ? given[static_cast<size_t>(i)]
                                                                                   : 0) += b.d_output.row(i);
                                 return InputGrads{};
                             }}));
        sum_formula += " + x_type";
        sum_title += " + token type";
    }

    StepId input = embed;
    if (parts.size() > 1) {
        input = add(id(StepKind::embedding_sum), {sum_title,
                                                  sum_formula,
                                                  parts,
                                                  {},
                                                  {},
                                                  "",
                                                  [](const StepContext& ctx) {
                                                      return StepOutput{sum_tensors(ctx.in), {}};
                                                  },
                                                  [n = parts.size()](const BackwardContext& b) {
                                                      return InputGrads(n, b.d_output);  // each part gets all of it
                                                  }});
    }
    if (params.norm)
        input = add(
            norm_.step(id(StepKind::embedding_norm), std::string("Embedding ") + norm_.name(), input, *params.norm));
    assert(input == stack_input(config_, side));
    return dropped_out(input);
}

}  // namespace attnlab
