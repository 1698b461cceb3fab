// Steps that turn token ids into the model's input: token embeddings, positions, token types,
// their sum, and (BERT) a LayerNorm over it.
#include "forward/graph_builder.h"
#include "ops/positional.h"

#include <cassert>
#include <cmath>

namespace attnlab {

namespace {

const std::vector<int>& side_ids(const StepContext& ctx, Stack stack) {
    return stack == Stack::encoder ? ctx.inputs.src_ids : ctx.inputs.tgt_ids;
}

// Each sequence of a batch gets the same positions 0..T−1: rows (T, C) -> (B·T, C).
Tensor each_sequence(const Tensor& rows, int batch) {
    if (batch == 1) return rows;
    Tensor out({batch * rows.dim(0), rows.dim(1)});
    for (int b = 0; b < batch; ++b) out.matrix().middleRows(b * rows.dim(0), rows.dim(0)) = rows.matrix();
    return out;
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

bool adds_positions(Positional p) { return p == Positional::sinusoidal || p == Positional::learned; }

StepId stack_input(const ModelConfig& config, Stack stack) {
    const EmbeddingParams params = embedding_params(config, stack);
    if (params.norm) return StepId::of(StepKind::embedding_norm, stack);
    const bool summed = adds_positions(config.positional) || !params.token_types.empty();
    return StepId::of(summed ? StepKind::embedding_sum : StepKind::token_embedding, stack);
}

StepId GraphBuilder::embedding(Stack side) {
    const bool src = side == Stack::encoder;
    auto id = [side](StepKind kind) { return StepId::of(kind, side); };
    const EmbeddingParams params = embedding_params(config_, side);
    const std::string table = params.tokens;
    const Control ids_control = src ? kSrcIdsControl : kTgtIdsControl;
    const float scale = config_.scale_embedding ? std::sqrt(static_cast<float>(config_.d_model)) : 1.0f;
    const std::string e = src ? "E_src" : "E_tgt";

    const StepId embed = add(id(StepKind::token_embedding),
                             {src ? "Source token embeddings" : "Target token embeddings",
                              config_.scale_embedding ? "x_emb = " + e + "[token]·√C" : "x_emb = " + e + "[token]",
                              {},
                              {table},
                              {ids_control},
                              "",
                              [side, table, scale](const StepContext& ctx) {
                                  const auto& ids = side_ids(ctx, side);
                                  const Tensor& E = ctx.param(table);                      // (V, C)
                                  Tensor x({static_cast<int64_t>(ids.size()), E.dim(1)});  // (N, C)
                                  for (size_t i = 0; i < ids.size(); ++i) {
                                      assert(ids[i] >= 0 && ids[i] < E.dim(0));
                                      x.row(static_cast<int64_t>(i)) = E.row(ids[i]) * scale;
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

    if (config_.positional == Positional::sinusoidal) {
        const bool halves = config_.sinusoid_layout == SinusoidLayout::halves;
        parts.push_back(
            add(id(StepKind::position),
                {halves ? "Sinusoidal positional encoding (sines, then cosines)" : "Sinusoidal positional encoding",
                 halves ? "PE(pos, i) = sin(pos / 10000^(2i/C)),  PE(pos, C/2 + i) = cos(pos / 10000^(2i/C))"
                        : "PE(pos, 2i) = sin(pos / 10000^(2i/C)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/C))",
                 {},
                 {},
                 {ids_control},
                 "C=" + std::to_string(config_.d_model),
                 [side](const StepContext& ctx) {
                     const int64_t n = side == Stack::encoder ? ctx.inputs.src_length() : ctx.inputs.tgt_length();
                     return StepOutput{each_sequence(sinusoidal_encoding(n, ctx.config.d_model,
                                                                         ctx.config.sinusoid_layout),
                                                     ctx.inputs.batch),
                                       {}};  // (B·T, C)
                 }}));
    } else if (config_.positional == Positional::learned) {
        const std::string positions = params.positions;
        parts.push_back(add(id(StepKind::position), {"Learned position embeddings",
                                                     "P[pos]",
                                                     {},
                                                     {positions},
                                                     {ids_control},
                                                     "",
                                                     [side, positions](const StepContext& ctx) {
                                                         const int64_t n = side == Stack::encoder
                                                                               ? ctx.inputs.src_length()
                                                                               : ctx.inputs.tgt_length();
                                                         const Tensor& P = ctx.param(positions);  // (max_len, C)
                                                         assert(n <= P.dim(0));
                                                         Tensor x({n, P.dim(1)});  // (T, C)
                                                         x.matrix() = P.matrix().topRows(n);
                                                         return StepOutput{each_sequence(x, ctx.inputs.batch), {}};
                                                     },
                                                     [positions](const BackwardContext& b) {  // dP[pos] += dx[pos]
                                                         Tensor& dP = b.param_grad(positions);
                                                         const int64_t n = b.d_output.dim(0) / b.inputs.batch;
                                                         for (int s = 0; s < b.inputs.batch; ++s)
                                                             dP.matrix().topRows(n) +=
                                                                 b.d_output.matrix().middleRows(s * n, n);
                                                         return InputGrads{};
                                                     }}));
    }
    if (adds_positions(config_.positional)) {
        sum_formula += " + PE";
        sum_title += " + position";
    }

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
    if (params.norm) input = norm(id(StepKind::embedding_norm), "Embedding " + norm_name(), input, *params.norm);
    assert(input == stack_input(config_, side));
    return dropped_out(input);
}

}  // namespace attnlab
