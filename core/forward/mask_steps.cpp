// Steps that build the attention masks from the ids (padding, look-ahead, cross) plus the user's cell overrides.
#include "forward/graph_builder.h"
#include "forward/mechanisms/layer_variants.h"

#include <cstdlib>

namespace attnlab {

namespace {

// A self-attention mask (B·N, N) with the cells outside the local window cleared: a decoder's query i keeps keys
// i − W < j (the causal part is already in the mask), an encoder's keeps |i − j| ≤ W/2 (ModernBERT's).
Tensor windowed(Tensor mask, int64_t n_queries, int window, bool causal) {
    const int64_t n_keys = mask.dim(1);
    for (int64_t r = 0; r < mask.dim(0); ++r) {
        const int64_t i = r % n_queries;
        for (int64_t j = 0; j < n_keys; ++j) {
            const bool inside = causal ? i - j < window : std::abs(i - j) <= window / 2;
            if (!inside) mask.data[static_cast<size_t>(r * n_keys + j)] = 0.0f;
        }
    }
    return mask;
}

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
    add(StepId::mask_of(use),
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
    if (has_local_and_global_layers(config_)) local_mask(use);
    return StepId::mask_of(use);
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
    // Mistral's window cuts every layer's look-ahead mask; with local and global layers, the local mask cuts it.
    const int window = has_local_and_global_layers(config_) ? 0 : config_.sliding_window;
    const StepId look_ahead =
        add(StepId::of(StepKind::look_ahead_mask, Stack::decoder),
            {window > 0 ? "Look-ahead mask, sliding window " + std::to_string(window) : "Look-ahead mask",
             window > 0 ? "A[i, j] = 1 if i − W < j ≤ i else 0  (W = " + std::to_string(window) + ")"
                        : "A[i, j] = 1 if j ≤ i else 0  (tril)",
             {},
             {},
             {kTgtIdsControl},
             "",
             [window](const StepContext& ctx) {
                 return StepOutput{look_ahead_mask(ctx.inputs.tgt_length(), window), {}};  // (T, T)
             }});
    const AttentionUse use = AttentionUse::decoder_self;
    add(StepId::mask_of(use),
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
    if (has_local_and_global_layers(config_)) local_mask(use);
    return StepId::mask_of(use);
}

StepId GraphBuilder::local_mask(AttentionUse use) {
    const bool causal = use == AttentionUse::decoder_self;
    const int window = config_.sliding_window;
    const std::string w = std::to_string(window);
    return add(local_mask_of(use),
               {std::string(causal ? "Decoder" : "Encoder") + " self-attention mask of the local layers (window " + w +
                    ")",
                causal ? "M_local[i, j] = M[i, j] if i − j < W else 0  (W = " + w + ")"
                       : "M_local[i, j] = M[i, j] if |i − j| ≤ W/2 else 0  (W = " + w + ")",
                {StepId::mask_of(use)},
                {},
                {},
                "window=" + w,
                [use, window, causal](const StepContext& ctx) {
                    const int64_t n = use == AttentionUse::encoder_self ? ctx.inputs.src_length()
                                                                        : ctx.inputs.tgt_length();
                    return StepOutput{windowed(ctx.input(0), n, window, causal), {}};  // (B·N, N)
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
