// Steps that turn token ids into the model's input: token embeddings, positions, and their sum.
#include "forward/graph_builder.h"
#include "ops/positional.h"

#include <cassert>
#include <cmath>

namespace attnlab {

namespace {

const std::vector<int>& side_ids(const StepContext& ctx, Side side) {
    return side == Side::source ? ctx.inputs.src_ids : ctx.inputs.tgt_ids;
}

Tensor add_tensors(const Tensor& a, const Tensor& b) {
    assert(a.shape == b.shape);
    Tensor out(a.shape);
    out.matrix() = a.matrix() + b.matrix();
    return out;
}

}  // namespace

std::string GraphBuilder::embedding(Side side) {
    const bool src = side == Side::source;
    const std::string prefix = src ? "src" : "tgt";
    const std::string table = src ? "src_embed.weight" : "tgt_embed.weight";
    const std::string ids_control = src ? kSrcIdsControl : kTgtIdsControl;
    const float scale = config_.scale_embedding ? std::sqrt(static_cast<float>(config_.d_model)) : 1.0f;
    const std::string e = src ? "E_src" : "E_tgt";

    add({prefix + ".embed", src ? "Source token embeddings" : "Target token embeddings",
         config_.scale_embedding ? "x_emb = " + e + "[token]·√C" : "x_emb = " + e + "[token]",
         {}, {table}, {ids_control}, "", [side, table, scale](const StepContext& ctx) {
             const auto& ids = side_ids(ctx, side);
             const Tensor& E = ctx.param(table);  // (V, C)
             Tensor x({static_cast<int64_t>(ids.size()), E.dim(1)});  // (N, C)
             for (size_t i = 0; i < ids.size(); ++i) {
                 assert(ids[i] >= 0 && ids[i] < E.dim(0));
                 x.row(static_cast<int64_t>(i)) = E.row(ids[i]) * scale;
             }
             return StepOutput{std::move(x), {}};
         }});

    if (config_.positional == Positional::none) return prefix + ".embed";

    if (config_.positional == Positional::sinusoidal) {
        add({prefix + ".pos", "Sinusoidal positional encoding",
             "PE(pos, 2i) = sin(pos / 10000^(2i/C)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/C))", {}, {},
             {ids_control}, "C=" + std::to_string(config_.d_model), [side](const StepContext& ctx) {
                 const auto n = static_cast<int64_t>(side_ids(ctx, side).size());
                 return StepOutput{sinusoidal_encoding(n, ctx.config.d_model), {}};  // (N, C)
             }});
    } else {
        add({prefix + ".pos", "Learned position embeddings", "P[pos]", {}, {"pos_embed.weight"}, {ids_control}, "",
             [side](const StepContext& ctx) {
                 const auto n = static_cast<int64_t>(side_ids(ctx, side).size());
                 const Tensor& P = ctx.param("pos_embed.weight");  // (max_len, C)
                 assert(n <= P.dim(0));
                 Tensor x({n, P.dim(1)});  // (N, C)
                 x.matrix() = P.matrix().topRows(n);
                 return StepOutput{std::move(x), {}};
             }});
    }
    add({prefix + ".input", "Embedding + position", "x = x_emb + PE", {prefix + ".embed", prefix + ".pos"}, {}, {}, "",
         [](const StepContext& ctx) { return StepOutput{add_tensors(ctx.input(0), ctx.input(1)), {}}; }});
    return prefix + ".input";
}

}  // namespace attnlab
