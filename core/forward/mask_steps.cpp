// Steps that build the attention masks from the ids (padding, look-ahead, cross) plus the user's cell overrides.
#include "forward/graph_builder.h"

namespace attnlab {

namespace {

// The user's cells, on the stepper's one sequence.
Tensor with_user_overrides(const StepContext& ctx, AttentionUse use, Tensor mask) {
    if (ctx.inputs.batch != 1) return mask;
    if (auto it = ctx.inputs.mask_overrides.find(use); it != ctx.inputs.mask_overrides.end())
        apply_mask_overrides(mask, it->second);
    return mask;
}

}  // namespace

StepId GraphBuilder::encoder_self_mask() {
    const StepId padding = add(StepId::of(StepKind::padding_mask, Stack::encoder),
                               {"Source padding",
                                "keep_j = (src_j ≠ <pad>)",
                                {},
                                {},
                                {kSrcIdsControl},
                                "pad=" + std::to_string(config_.pad_id),
                                [](const StepContext& ctx) {
                                    return StepOutput{key_padding(ctx.inputs.src_ids, ctx.config.pad_id), {}};
                                }});
    const AttentionUse use = AttentionUse::encoder_self;
    return add(StepId::mask_of(use),
               {"Encoder self-attention mask",
                "M[i, j] = keep_j  (padding masks keys only)",
                {padding},
                {},
                {Control::mask_of(use)},
                "",
                [](const StepContext& ctx) {
                    const Tensor& keys = ctx.input(0);  // (B·S,)
                    Tensor m = combine_masks(ctx.inputs.src_length(), keys, nullptr, ctx.inputs.batch);  // (B·S, S)
                    return StepOutput{with_user_overrides(ctx, AttentionUse::encoder_self, std::move(m)), {}};
                }});
}

StepId GraphBuilder::decoder_self_mask() {
    const bool starts_with_pad = config_.target_pad_id() == -1 && config_.pad_id != -1;
    const StepId padding =
        add(StepId::of(StepKind::padding_mask, Stack::decoder),
            {"Target padding",
             starts_with_pad ? "keep_j = 1  (the decoder starts from <pad>)" : "keep_j = (tgt_j ≠ <pad>)",
             {},
             {},
             {kTgtIdsControl},
             "pad=" + std::to_string(config_.target_pad_id()),
             [](const StepContext& ctx) {
                 return StepOutput{key_padding(ctx.inputs.tgt_ids, ctx.config.target_pad_id()), {}};
             }});
    const int window = config_.sliding_window;
    const StepId look_ahead =
        add(StepId::of(StepKind::look_ahead_mask, Stack::decoder),
            {window > 0 ? "Look-ahead mask, sliding window " + std::to_string(window) : "Look-ahead mask",
             window > 0 ? "A[i, j] = 1 if i − W < j ≤ i else 0  (W = " + std::to_string(window) + ")"
                        : "A[i, j] = 1 if j ≤ i else 0  (tril)",
             {},
             {},
             {kTgtIdsControl},
             "",
             [](const StepContext& ctx) {
                 return StepOutput{
                     look_ahead_mask(ctx.inputs.tgt_length(), ctx.config.sliding_window), {}};  // (T, T)
             }});
    const AttentionUse use = AttentionUse::decoder_self;
    return add(StepId::mask_of(use),
               {"Decoder self-attention mask",
                "M[i, j] = A[i, j] ∧ keep_j",
                {padding, look_ahead},
                {},
                {Control::mask_of(use)},
                "",
                [](const StepContext& ctx) {
                    const Tensor& keys = ctx.input(0);  // (B·T,)
                    Tensor m = combine_masks(ctx.inputs.tgt_length(), keys, &ctx.input(1), ctx.inputs.batch);  // (B·T, T)
                    return StepOutput{with_user_overrides(ctx, AttentionUse::decoder_self, std::move(m)), {}};
                }});
}

StepId GraphBuilder::cross_mask() {
    const AttentionUse use = AttentionUse::cross;
    const StepId source_padding = StepId::of(StepKind::padding_mask, Stack::encoder);
    return add(StepId::mask_of(use),
               {"Cross-attention mask",
                "M[i, j] = keep_j of the source  (T × S)",
                {source_padding},
                {},
                {kTgtIdsControl, Control::mask_of(use)},
                "",
                [](const StepContext& ctx) {
                    Tensor m = combine_masks(ctx.inputs.tgt_length(), ctx.input(0), nullptr, ctx.inputs.batch);  // (B·T, S)
                    return StepOutput{with_user_overrides(ctx, AttentionUse::cross, std::move(m)), {}};
                }});
}

}  // namespace attnlab
