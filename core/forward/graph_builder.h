// GraphBuilder: appends the steps of each part of the Transformer (embeddings, masks,
// attention, sublayers, blocks, output head) and returns the ids of what it added.
// It is the only writer of a step's record and path: each step is added under a typed
// StepId, and its path is step_path(id). Parameters are read where the config's family
// keeps them (param_names.h); the steps of a mechanism (the norm, the positions, the FFN, the
// head norms) are the mechanism's own (forward/mechanisms/), which the builder wires in.
#pragma once

#include "forward/mechanisms/feed_forward.h"
#include "forward/mechanisms/head_norm.h"
#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/positions.h"
#include "forward/mechanisms/score_bias.h"
#include "forward/mechanisms/soft_cap.h"
#include "forward/mechanisms/stream_multipliers.h"
#include "forward/step.h"
#include "forward/step_path.h"
#include "param_names.h"

namespace attnlab {

class GraphBuilder {
public:
    GraphBuilder(const ModelConfig& config, const GraphOptions& options)
        : config_(config),
          options_(options),
          norm_(config),
          positions_(config),
          feed_forward_(config),
          head_norm_(config),
          score_bias_(config) {}
    std::vector<Step> take() { return std::move(steps_); }

    // src.embed, src.pos, src.token_type, src.input, src.embed_norm (or tgt.*), as far as the
    // config has them. Returns the stack's input (N, C).
    StepId embedding(Stack stack);
    // masks.src_padding (S,) and masks.encoder_self (S, S).
    StepId encoder_self_mask();
    // masks.tgt_padding (T,), masks.look_ahead (T, T), masks.decoder_self (T, T).
    StepId decoder_self_mask();
    // With local and global layers (layer_variants.h), the two above also add the local layers' mask,
    // masks.encoder_self_local (S, S) / masks.decoder_self_local (T, T): the use's mask cut to the window. Returns
    // its id.
    StepId local_mask(AttentionUse use);
    // encoder.position_bias / decoder.position_bias (H, N, N): the bias the stack's self-attentions add to their
    // scores (score_bias.h), when the config has one; each attention() of the stack then adds its biased stage.
    // `table`: a learned bias's parameter (T5's), "" for ALiBi. Returns the step's id, nullopt without a bias.
    std::optional<StepId> position_bias(Stack stack, const std::string& table = "");
    // masks.cross (T, S), built from the source padding.
    StepId cross_mask();

    // q, k, v, scores, scaled, masked, weights, context, concat, out of one attention.
    // Queries come from q_input (Tq, C); keys and values from kv_input (Tk, C). Returns out (Tq, C).
    StepId attention(const AttentionSite& site, const AttentionParams& params, const StepId& q_input,
                     const StepId& kv_input, const StepId& mask);
    // ffn.hidden (N, F), ffn.activation (N, F), ffn.out (N, C); a gated FFN: ffn.gate, ffn.activation, ffn.up,
    // ffn.gated (N, F each) and ffn.out. Returns ffn.out.
    StepId feed_forward(Stack stack, int layer, const LayerParams& params, const StepId& input);
    // Self-attention (of `use`) + FFN: an encoder layer, or a decoder_only block. Returns the layer output.
    // A local layer of a model with global layers too reads its use's local mask instead of `mask` (so does
    // cross_block's self-attention).
    StepId self_block(AttentionUse use, int layer, const LayerParams& params, const StepId& input, const StepId& mask);
    // Decoder self-attention + cross-attention over `memory` + FFN. Returns the layer output.
    StepId cross_block(int layer, const LayerParams& params, const StepId& input, const StepId& memory,
                       const StepId& self_mask, const StepId& cross_mask);
    // encoder.output / decoder.output: the final LayerNorm, or the last layer's output as is.
    StepId stack_output(Stack stack, const StepId& input);
    // head.transform, head.activation, head.norm (output_head transform), then logits (N, V)
    // and probs (N, V); nothing for output_head none.
    void output_head(const StepId& input);

private:
    using SublayerFn = std::function<StepId(const StepId& normed_or_raw_input)>;
    // Wraps sublayer k of a layer with its residual and norm, after it or before it as the norm mechanism places
    // it. Returns the stream after it.
    // With post_norm (Gemma's post_sublayer_norm), the sublayer's output goes through it (…post_norm{k}) first.
    StepId residual_sublayer(Stack stack, int layer, int k, const StepId& x, const NormParams& norm,
                             const SublayerFn& sublayer, const NormParams* post_norm = nullptr);
    // Records `id` (and the path it names) in the step and appends it. Returns id.
    StepId add(const StepId& id, Step step);
    StepId add(PlacedStep placed) { return add(placed.id, std::move(placed.step)); }
    // With GraphOptions::dropout: the last step added, which is `id`, drops out its output. Returns id.
    StepId dropped_out(const StepId& id);

    const ModelConfig& config_;
    GraphOptions options_;
    NormMechanism norm_;
    PositionMechanism positions_;
    FeedForwardMechanism feed_forward_;
    HeadNormMechanism head_norm_;
    ScoreBiasMechanism score_bias_;
    std::map<Stack, StepId> position_bias_;  // each stack's bias step, once position_bias() has added it
    SoftCapMechanism soft_cap_{config_};  // Gemma 2's c·tanh(x/c) of the scores and the logits
    StreamMultiplierMechanism multipliers_{config_};  // Granite's m_emb of the embeddings, m of each residual add
    std::vector<Step> steps_;
};

}  // namespace attnlab
