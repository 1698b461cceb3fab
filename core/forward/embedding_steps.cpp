// Steps that turn token ids into the model's input, and the attention masks built from ids.
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

Tensor with_user_overrides(const StepContext& ctx, const std::string& mask_path, Tensor mask) {
    if (auto it = ctx.inputs.mask_overrides.find(mask_path); it != ctx.inputs.mask_overrides.end())
        apply_mask_overrides(mask, it->second);
    return mask;
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
             {ids_control}, "", [side](const StepContext& ctx) {
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

std::string GraphBuilder::encoder_self_mask() {
    add({"masks.src_padding", "Source padding", "keep_j = (src_j ≠ <pad>)", {}, {}, {kSrcIdsControl}, "pad=" + std::to_string(config_.pad_id),
         [](const StepContext& ctx) { return StepOutput{key_padding(ctx.inputs.src_ids, ctx.config.pad_id), {}}; }});
    const std::string path = "masks.encoder_self";
    add({path, "Encoder self-attention mask", "M[i, j] = keep_j  (padding masks keys only)", {"masks.src_padding"}, {},
         {mask_control(path)}, "", [path](const StepContext& ctx) {
             const Tensor& keys = ctx.input(0);
             Tensor m = combine_masks(keys.dim(0), keys, nullptr);  // (S, S)
             return StepOutput{with_user_overrides(ctx, path, std::move(m)), {}};
         }});
    return path;
}

std::string GraphBuilder::decoder_self_mask() {
    add({"masks.tgt_padding", "Target padding", "keep_j = (tgt_j ≠ <pad>)", {}, {}, {kTgtIdsControl}, "pad=" + std::to_string(config_.pad_id),
         [](const StepContext& ctx) { return StepOutput{key_padding(ctx.inputs.tgt_ids, ctx.config.pad_id), {}}; }});
    add({"masks.look_ahead", "Look-ahead mask", "A[i, j] = 1 if j ≤ i else 0  (tril)", {}, {}, {kTgtIdsControl}, "",
         [](const StepContext& ctx) {
             return StepOutput{look_ahead_mask(static_cast<int64_t>(ctx.inputs.tgt_ids.size())), {}};
         }});
    const std::string path = "masks.decoder_self";
    add({path, "Decoder self-attention mask", "M[i, j] = A[i, j] ∧ keep_j", {"masks.tgt_padding", "masks.look_ahead"},
         {}, {mask_control(path)}, "", [path](const StepContext& ctx) {
             const Tensor& keys = ctx.input(0);
             Tensor m = combine_masks(keys.dim(0), keys, &ctx.input(1));  // (T, T)
             return StepOutput{with_user_overrides(ctx, path, std::move(m)), {}};
         }});
    return path;
}

std::string GraphBuilder::cross_mask() {
    const std::string path = "masks.cross";
    add({path, "Cross-attention mask", "M[i, j] = keep_j of the source  (T × S)", {"masks.src_padding"}, {},
         {kTgtIdsControl, mask_control(path)}, "", [path](const StepContext& ctx) {
             const auto n_queries = static_cast<int64_t>(ctx.inputs.tgt_ids.size());
             Tensor m = combine_masks(n_queries, ctx.input(0), nullptr);  // (T, S)
             return StepOutput{with_user_overrides(ctx, path, std::move(m)), {}};
         }});
    return path;
}

}  // namespace attnlab
