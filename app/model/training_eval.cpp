// Chunked held-out evaluation: decode, keep the hypotheses, and sum the loss over tokens.
#include "training_eval.h"

#include "train/batch.h"
#include "train/batch_decode.h"
#include "train/grad_ops.h"
#include "train/transformer_grad.h"

#include <algorithm>
#include <cassert>

namespace attnlab::gui {

ChunkedEval::ChunkedEval(const Task& task, size_t n_examples, float label_smoothing, int max_new_tokens)
    : task_(task),
      n_(n_examples == 0 ? task.heldout().size() : std::min(n_examples, task.heldout().size())),
      label_smoothing_(label_smoothing),
      max_new_tokens_(max_new_tokens) {}

void ChunkedEval::run_chunk(const Model& model, size_t chunk) {
    const size_t end = std::min(n_, next_ + std::max<size_t>(chunk, 1));
    const auto& heldout = task_.heldout();
    std::vector<TokenPair> pairs;
    std::vector<std::vector<int>> sources;
    for (size_t i = next_; i < end; ++i) {
        pairs.push_back(to_token_pair(task_, heldout[i]));
        sources.push_back(pairs.back().src);
    }
    const int full = model.config.max_len - 1;
    const int cap = max_new_tokens_ > 0 ? std::min(max_new_tokens_, full) : full;
    const auto decoded = greedy_decode_batch(model.config, model.weights, sources, cap);
    const Vocab& tgt = task_.tgt_vocab();
    for (size_t i = 0; i < decoded.size(); ++i) {
        Sentence words;
        for (int id : decoded[i]) words.push_back(tgt.token(id));
        hypotheses_.push_back(std::move(words));
        references_.push_back(heldout[next_ + i].tgt);
    }
    const Batch batch = make_batch(pairs, model.config);
    auto logits = batch_logits(model.config, model.weights, batch);
    assert(logits.ok() && "the task's examples fit the model made for it");
    const CrossEntropyResult ce =
        cross_entropy_forward_backward(*logits, batch.tgt_out, model.config.pad_id, label_smoothing_);
    loss_sum_ += ce.loss * static_cast<double>(ce.n_counted);
    loss_tokens_ += ce.n_counted;
    next_ = end;
}

EvalScores ChunkedEval::scores() const {
    EvalScores s;
    s.n_examples = static_cast<int>(hypotheses_.size());
    if (hypotheses_.empty()) return s;
    s.exact_match = exact_match(hypotheses_, references_);
    s.token_accuracy = token_accuracy(hypotheses_, references_);
    s.bleu = corpus_bleu(hypotheses_, references_);
    s.loss = loss_tokens_ ? loss_sum_ / static_cast<double>(loss_tokens_) : 0.0;
    return s;
}

int live_decode_cap(const Task& task, size_t n_examples) {
    const auto& heldout = task.heldout();
    const size_t n = n_examples == 0 ? heldout.size() : std::min(n_examples, heldout.size());
    size_t longest = 0;
    for (size_t i = 0; i < n; ++i) longest = std::max(longest, heldout[i].tgt.size());
    return static_cast<int>(2 * longest + 2);
}

}  // namespace attnlab::gui
