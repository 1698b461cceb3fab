// Steps that build the attention masks from the ids (padding, look-ahead, cross) plus the user's cell overrides.
#include "forward/graph_builder.h"

namespace attnlab {

namespace {

Tensor with_user_overrides(const StepContext& ctx, const std::string& mask_path, Tensor mask) {
    if (auto it = ctx.inputs.mask_overrides.find(mask_path); it != ctx.inputs.mask_overrides.end())
        apply_mask_overrides(mask, it->second);
    return mask;
}

}  // namespace

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
