// The forward pass of each architecture as one ordered list of steps.
#include "forward/graph_builder.h"
#include "ops/dropout.h"

#include <cassert>
#include <cstdio>

namespace attnlab {

std::string Step::signature() const {
    std::string s = path + '\n' + formula + '\n' + variant;
    for (const StepId& input : inputs) s += '\n' + step_path(input);
    for (const std::string& param : params) s += '\n' + param;
    for (const Control& control : controls) s += '\n' + control.name();
    return s;
}

Retention retention_of(const StepId& id) {
    if (id.kind == StepKind::ffn) return id.part == FfnPart::activation ? Retention::on_demand : Retention::kept;
    if (id.kind != StepKind::attention) return Retention::kept;
    switch (id.stage) {
        case AttentionStage::scores:
        case AttentionStage::scaled:
        case AttentionStage::biased:
        case AttentionStage::capped:
        case AttentionStage::masked:
        case AttentionStage::concat: return Retention::on_demand;
        default: return Retention::kept;
    }
}

bool finite_from_finite(const StepId& id) {
    if (id.kind == StepKind::probs || id.kind == StepKind::capped_logits) return true;  // |c·tanh(x/c)| < c
    if (id.kind == StepKind::ffn && id.part == FfnPart::activation) return true;
    if (id.kind != StepKind::attention) return false;
    return id.stage == AttentionStage::scaled || id.stage == AttentionStage::capped ||
           id.stage == AttentionStage::masked ||
           id.stage == AttentionStage::weights || id.stage == AttentionStage::concat;
}

std::string Control::name() const {
    switch (kind) {
        case ControlKind::src_ids: return "src_ids";
        case ControlKind::tgt_ids: return "tgt_ids";
        case ControlKind::src_token_types: return "src_token_types";
        case ControlKind::mask: return "mask:" + step_path(StepId::mask_of(use));
        case ControlKind::ablation: return "ablation:" + attention_name(site);
        case ControlKind::expert_ablation: return "experts:" + step_path(StepId::ffn_at(ffn.stack, ffn.layer, FfnPart::routing));
    }
    return "";
}

StepId GraphBuilder::add(const StepId& id, Step step) {
    step.record = StepRecord::of(id, config_);
    step.path = step_path(id);
    step.retention = retention_of(id);
    steps_.push_back(std::move(step));
    return id;
}

StepId GraphBuilder::dropped_out(const StepId& id) {
    const float p = options_.dropout;
    if (p == 0.0f) return id;
    Step& step = steps_.back();
    assert(step.record.id == id && step.backward);
    char variant[48];
    std::snprintf(variant, sizeof variant, "dropout p=%.9g", static_cast<double>(p));
    step.variant += step.variant.empty() ? variant : std::string(" ") + variant;
    const uint64_t site = dropout_site(step.path);
    step.compute = [compute = std::move(step.compute), p, site](const StepContext& ctx) {
        StepOutput out = compute(ctx);
        dropout_in_place(out.value, p, ctx.inputs.dropout_seed, site);
        out.non_finite.reset();  // counted before the drop
        return out;
    };
    step.backward = [backward = std::move(step.backward), p, site](const BackwardContext& b) {
        Tensor d = b.d_output;  // the same mask on the way back
        dropout_in_place(d, p, b.inputs.dropout_seed, site);
        return backward({b.config, b.weights, b.inputs, b.input, b.output, d, b.params});
    };
    return id;
}

namespace {

// ---- One function per family: its steps, from GraphBuilder's parts ----

// torch.nn.Transformer in each of its architectures: encoder-decoder (the paper's), encoder-only
// and decoder-only; Marian, the paper's encoder-decoder without final norms, its sinusoids in halves; and T5,
// pre-norm RMSNorm blocks with nothing added to the embeddings, each stack's self-attentions biased by its learned
// relative-position table.
void transformer_steps(GraphBuilder& g, const ModelConfig& config) {
    StepId memory;
    if (config.has_encoder()) {
        StepId x = g.embedding(Stack::encoder);
        const StepId mask = g.encoder_self_mask();
        g.position_bias(Stack::encoder, position_bias_table(config, Stack::encoder));  // T5's; nothing for the others
        for (int i = 0; i < config.n_encoder_layers; ++i)
            x = g.self_block(AttentionUse::encoder_self, i, layer_params(config, Stack::encoder, i), x, mask);
        memory = g.stack_output(Stack::encoder, x);
        if (config.arch == Arch::encoder_only) g.output_head(memory);
    }
    if (config.has_decoder()) {
        StepId x = g.embedding(Stack::decoder);
        const StepId self_mask = g.decoder_self_mask();
        const StepId cross_mask = config.arch == Arch::encoder_decoder ? g.cross_mask() : StepId{};
        g.position_bias(Stack::decoder, position_bias_table(config, Stack::decoder));
        for (int i = 0; i < config.n_decoder_layers; ++i) {
            const LayerParams params = layer_params(config, Stack::decoder, i);
            x = config.arch == Arch::decoder_only ? g.self_block(AttentionUse::decoder_self, i, params, x, self_mask)
                                                  : g.cross_block(i, params, x, memory, self_mask, cross_mask);
        }
        g.output_head(g.stack_output(Stack::decoder, x));
    }
}

// A decoder-only stack of self-attention blocks over the causal mask, the final norm and the unembedding:
// GPT-2 (pre-LN, learned positions, ln_f, tied to wte) and the Llama template (llama, mistral, qwen2, qwen3:
// token embeddings alone, as positions enter as RoPE in each attention; pre-norm RMSNorm blocks, grouped-query
// attention, a SwiGLU FFN; a final RMSNorm; lm_head). The config's switches make the difference.
void decoder_only_steps(GraphBuilder& g, const ModelConfig& config) {
    StepId x = g.embedding(Stack::decoder);
    const StepId mask = g.decoder_self_mask();
    g.position_bias(Stack::decoder);  // BLOOM's ALiBi; nothing for the others
    for (int i = 0; i < config.n_decoder_layers; ++i)
        x = g.self_block(AttentionUse::decoder_self, i, layer_params(config, Stack::decoder, i), x, mask);
    g.output_head(g.stack_output(Stack::decoder, x));
}

// BERT: word + position + token-type embeddings and their LayerNorm, an encoder of post-LN
// blocks over the padding mask, and, when the file has it, the masked-LM head.
void bert_steps(GraphBuilder& g, const ModelConfig& config) {
    StepId x = g.embedding(Stack::encoder);
    const StepId mask = g.encoder_self_mask();
    for (int i = 0; i < config.n_encoder_layers; ++i)
        x = g.self_block(AttentionUse::encoder_self, i, layer_params(config, Stack::encoder, i), x, mask);
    g.output_head(g.stack_output(Stack::encoder, x));
}

}  // namespace

std::vector<Step> build_forward_steps(const ModelConfig& config, const GraphOptions& options) {
    GraphBuilder g(config, options);
    switch (config.family) {
        case Family::transformer:
        case Family::marian:
        case Family::t5: transformer_steps(g, config); break;
        case Family::gemma2:
        case Family::gemma3:
        case Family::gpt2:
        case Family::llama:
        case Family::mistral:
        case Family::qwen2:
        case Family::qwen3:
        case Family::smollm3:
        case Family::olmoe:
        case Family::qwen3_moe:
        case Family::granitemoe:
        case Family::bloom: decoder_only_steps(g, config); break;
        case Family::bert:
        case Family::modernbert: bert_steps(g, config); break;
    }
    return g.take();
}

}  // namespace attnlab
