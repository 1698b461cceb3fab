// Loss and gradients of one batch, and batched inference logits, with the input checks a user's data needs.
#include "train/transformer_grad.h"

#include "train/grad_ops.h"
#include "train/transformer_pass.h"

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

}  // namespace

Status check_batch(const ModelConfig& config, const Batch& batch) {
    if (config.arch != Arch::encoder_decoder)
        return Error{"training needs an encoder_decoder model, not " + to_string(config.arch)};
    if (batch.B <= 0 || batch.S <= 0 || batch.T <= 0) return Error{"the batch is empty"};
    if (batch.src.size() != static_cast<size_t>(batch.B) * batch.S ||
        batch.tgt_in.size() != static_cast<size_t>(batch.B) * batch.T || batch.tgt_out.size() != batch.tgt_in.size())
        return Error{"the batch's id arrays do not match its B, S and T"};
    if (std::max(batch.S, batch.T) > config.max_len)
        return Error{"a sequence of " + std::to_string(std::max(batch.S, batch.T)) + " tokens is longer than max_len " +
                     std::to_string(config.max_len)};
    if (auto st = check_ids(batch.src, config.src_vocab_size, "source"); !st) return st;
    if (auto st = check_ids(batch.tgt_in, config.tgt_vocab_size, "target"); !st) return st;
    return check_ids(batch.tgt_out, config.tgt_vocab_size, "target");
}

Result<LossAndGradients> loss_and_gradients(const ModelConfig& config, const Weights& weights, const Batch& batch,
                                            const TrainOptions& options) {
    if (auto st = check_batch(config, batch); !st) return st.error();
    TransformerPass pass(config, weights, &options);
    const Tensor memory = pass.encode(batch.src, batch.S);                                 // (B·S, C)
    const Tensor logits = pass.decode(memory, batch.src, batch.S, batch.tgt_in, batch.T);  // (B·T, V)
    CrossEntropyResult ce =
        cross_entropy_forward_backward(logits, batch.tgt_out, config.pad_id, options.label_smoothing);
    LossAndGradients out;
    out.loss = ce.loss + pass.penalty();
    out.n_tokens = ce.n_counted;
    out.n_correct = count_correct(logits, batch.tgt_out, config.pad_id);
    out.grads = zero_gradients(weights);
    pass.backward(ce.dlogits, out.grads);
    return out;
}

Result<Tensor> batch_logits(const ModelConfig& config, const Weights& weights, const Batch& batch) {
    if (auto st = check_batch(config, batch); !st) return st.error();
    TransformerPass pass(config, weights, nullptr);
    const Tensor memory = pass.encode(batch.src, batch.S);
    return pass.decode(memory, batch.src, batch.S, batch.tgt_in, batch.T);
}

}  // namespace attnlab
