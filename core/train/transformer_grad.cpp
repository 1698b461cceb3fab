// Loss and gradients of one batch, and batched inference logits, with the input checks a user's data needs: the
// model's own step graph run over the batch (GraphRun).
#include "train/transformer_grad.h"

#include "train/attention_overlap.h"
#include "ops/cross_entropy.h"
#include "train/graph_run.h"

#include <algorithm>
#include <string>

namespace attnlab {

namespace {

Status check_ids(const std::vector<int>& ids, int vocab_size, const char* what) {
    for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= vocab_size)
            return Error{std::string(what) + " id " + std::to_string(ids[i]) + " at " + std::to_string(i) +
                         " is outside the vocabulary (0.." + std::to_string(vocab_size - 1) + ")"};
    return ok_status();
}

int64_t count_correct(const Tensor& logits, const std::vector<int>& targets, int pad_id) {
    int64_t correct = 0;
    for (int64_t r = 0; r < logits.dim(0); ++r) {
        const int want = targets[static_cast<size_t>(r)];
        if (want == pad_id) continue;
        Eigen::Index best = 0;
        logits.row(r).maxCoeff(&best);
        correct += best == want;
    }
    return correct;
}

// pad_id marks a target no loss counts, even when it is -1.
Status check_targets(const Batch& batch, int vocab_size) {
    for (size_t i = 0; i < batch.tgt_out.size(); ++i)
        if (batch.tgt_out[i] != batch.pad_id && (batch.tgt_out[i] < 0 || batch.tgt_out[i] >= vocab_size))
            return Error{"target id " + std::to_string(batch.tgt_out[i]) + " at " + std::to_string(i) +
                         " is outside the vocabulary (0.." + std::to_string(vocab_size - 1) + ")"};
    return ok_status();
}

// An encoder-only (masked-token) batch: B sources of S ids, no decoder input (T = 0), a target for every source
// position, (B, S).
Status check_masked_batch(const ModelConfig& config, const Batch& batch) {
    if (batch.B <= 0 || batch.S <= 0) return Error{"the batch is empty"};
    if (batch.T != 0 || !batch.tgt_in.empty())
        return Error{"an encoder-only model reads no target sequence: give masked sources (T = 0)"};
    if (batch.src.size() != static_cast<size_t>(batch.B) * batch.S || batch.tgt_out.size() != batch.src.size())
        return Error{"the batch's id arrays do not match its B and S"};
    if (batch.S > config.max_len)
        return Error{"a sequence of " + std::to_string(batch.S) + " tokens is longer than max_len " +
                     std::to_string(config.max_len)};
    if (auto st = check_ids(batch.src, config.src_vocab_size, "source"); !st) return st;
    return check_targets(batch, config.output_vocab_size());
}

}  // namespace

Status check_batch(const ModelConfig& config, const Batch& batch) {
    if (config.output_head == OutputHead::none)
        return Error{"this model has no output head (a BERT file without its MLM head): there are no logits to train"};
    if (config.arch == Arch::encoder_only) return check_masked_batch(config, batch);
    const bool encoder = config.arch == Arch::encoder_decoder;
    if (batch.B <= 0 || batch.T <= 0 || (encoder && batch.S <= 0)) return Error{"the batch is empty"};
    if (!encoder && batch.S != 0) return Error{"a decoder-only model reads no source"};
    if (batch.src.size() != static_cast<size_t>(batch.B) * batch.S ||
        batch.tgt_in.size() != static_cast<size_t>(batch.B) * batch.T || batch.tgt_out.size() != batch.tgt_in.size())
        return Error{"the batch's id arrays do not match its B, S and T"};
    if (std::max(batch.S, batch.T) > config.max_len)
        return Error{"a sequence of " + std::to_string(std::max(batch.S, batch.T)) + " tokens is longer than max_len " +
                     std::to_string(config.max_len)};
    if (auto st = check_ids(batch.src, config.src_vocab_size, "source"); !st) return st;
    if (auto st = check_ids(batch.tgt_in, config.tgt_vocab_size, "target"); !st) return st;
    return check_targets(batch, config.tgt_vocab_size);
}

namespace {

// The graph's inputs for a batch. A batch without padding (pad_id −1: windows of a token stream) masks no key,
// whatever the model's pad token is.
ForwardInputs batch_inputs(const Batch& batch, const TrainOptions* options) {
    ForwardInputs in;
    in.src_ids = batch.src;
    in.tgt_ids = batch.tgt_in;
    in.batch = batch.B;
    if (options) {
        in.ablated_heads = options->ablated_heads;
        in.dropout_seed = options->dropout_seed;
    }
    return in;
}

ModelConfig run_config(ModelConfig config, const Batch& batch) {
    if (batch.pad_id == -1) config.pad_id = -1;
    return config;
}

}  // namespace

Result<LossAndGradients> loss_and_gradients(const ModelConfig& config, const Weights& weights, const Batch& batch,
                                            const TrainOptions& options) {
    if (auto st = check_batch(config, batch); !st) return st.error();
    const ForwardInputs inputs = batch_inputs(batch, &options);
    GraphRun run(run_config(config, batch), GraphOptions{options.dropout});
    run.run(weights, inputs);
    const size_t logits = *run.logits_step();
    CrossEntropyResult ce =
        cross_entropy_forward_backward(run.output(logits), batch.tgt_out, batch.pad_id, options.label_smoothing);
    LossAndGradients out;
    out.loss = ce.loss;
    out.n_tokens = ce.n_counted;
    out.n_correct = count_correct(run.output(logits), batch.tgt_out, batch.pad_id);
    std::vector<std::pair<size_t, Tensor>> seeds;
    seeds.emplace_back(logits, std::move(ce.dlogits));
    if (options.head_disagreement > 0.0f || options.query_disagreement > 0.0f) {
        static const std::set<int> none;
        for (size_t i = 0; i < run.steps().size(); ++i) {
            const StepId& id = run.steps()[i].record.id;
            if (id.kind != StepKind::attention || id.stage != AttentionStage::weights) continue;
            const auto ablated = options.ablated_heads.find(id.site());
            OverlapPenalty penalty =
                overlap_penalty(run.output(i), batch.B, ablated == options.ablated_heads.end() ? none : ablated->second,
                                options.head_disagreement, options.query_disagreement);
            out.loss += penalty.value;
            seeds.emplace_back(i, std::move(penalty.d_weights));
        }
    }
    out.grads = zero_gradients(weights);
    for (auto& [name, grad] : run.backward(std::move(seeds))) out.grads.at(name) = std::move(grad);
    return out;
}

Result<Tensor> batch_logits(const ModelConfig& config, const Weights& weights, const Batch& batch) {
    if (auto st = check_batch(config, batch); !st) return st.error();
    const ForwardInputs inputs = batch_inputs(batch, nullptr);
    GraphRun run(run_config(config, batch));
    run.run(weights, inputs);
    return run.output(*run.logits_step());
}

}  // namespace attnlab
