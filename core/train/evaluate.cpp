// Held-out evaluation: decode every source, compare with its reference, and measure the loss.
#include "train/evaluate.h"

#include "ops/cross_entropy.h"
#include "train/batch_decode.h"
#include "train/metrics.h"
#include "train/transformer_grad.h"

#include <algorithm>
#include <limits>

namespace attnlab {

namespace {

Sentence words_of(const Vocab& vocab, const std::vector<int>& ids) {
    Sentence words;
    words.reserve(ids.size());
    for (int id : ids) words.push_back(vocab.token(id));
    return words;
}

Status check_model_for(const Model& model, const Task& task) {
    if (model.config.arch != Arch::encoder_decoder) return Error{"evaluation needs an encoder_decoder model"};
    if (!model.src_vocab || !model.tgt_vocab || model.src_vocab->tokens() != task.src_vocab().tokens() ||
        model.tgt_vocab->tokens() != task.tgt_vocab().tokens())
        return Error{"the model's vocabularies are not those of task '" + task.name() + "'"};
    return ok_status();
}

size_t examples_of(const Task& task, size_t max_examples) {
    const size_t all = task.heldout().size();
    return max_examples == 0 ? all : std::min(max_examples, all);
}

}  // namespace

HeldoutEval::HeldoutEval(const Task& task, const EvalOptions& options)
    : task_(task), options_(options), n_(examples_of(task, options.max_examples)) {}

Status HeldoutEval::run_chunk(const Model& model, size_t chunk) {
    if (auto st = check_model_for(model, task_); !st) return st;
    const size_t end = next_ + std::min(n_ - next_, std::max<size_t>(chunk, 1));
    const auto& heldout = task_.heldout();
    std::vector<TokenPair> pairs;
    std::vector<std::vector<int>> sources;
    for (size_t i = next_; i < end; ++i) {
        pairs.push_back(to_token_pair(task_, heldout[i]));
        sources.push_back(pairs.back().src);
        if (static_cast<int>(std::max(pairs.back().src.size(), pairs.back().tgt.size())) + 1 > model.config.max_len)
            return Error{"a held-out example is longer than the model's max_len"};
    }
    if (pairs.empty()) return ok_status();

    // The teacher-forced loss first: an error leaves nothing half-added.
    const Batch batch = make_batch(pairs, model.config);
    auto logits = batch_logits(model.config, model.weights, batch);
    if (!logits) return logits.error();
    const CrossEntropyResult ce =
        cross_entropy_forward_backward(*logits, batch.tgt_out, model.config.pad_id, options_.label_smoothing);

    const int full = model.config.max_len - 1;
    const int max_new = options_.max_new_tokens > 0 ? std::min(options_.max_new_tokens, full) : full;
    std::vector<std::vector<int>> decoded;
    if (options_.beam_size <= 1) {
        decoded = greedy_decode_batch(model.config, model.weights, sources, max_new);
    } else {
        BeamOptions beam;
        beam.beam_size = options_.beam_size;
        beam.max_new_tokens = max_new;
        for (const auto& source : sources) decoded.push_back(beam_decode(model.config, model.weights, source, beam));
    }
    for (size_t i = 0; i < decoded.size(); ++i) {
        hypotheses_.push_back(words_of(task_.tgt_vocab(), decoded[i]));
        references_.push_back(heldout[next_ + i].tgt);
    }
    loss_sum_ += ce.loss * static_cast<double>(ce.n_counted);
    loss_tokens_ += ce.n_counted;
    next_ = end;
    return ok_status();
}

EvalScores HeldoutEval::scores() const {
    EvalScores s;
    s.n_examples = static_cast<int>(hypotheses_.size());
    if (hypotheses_.empty()) return s;
    s.exact_match = exact_match(hypotheses_, references_);
    s.token_accuracy = token_accuracy(hypotheses_, references_);
    s.bleu = corpus_bleu(hypotheses_, references_);
    s.loss = loss_tokens_ > 0 ? loss_sum_ / static_cast<double>(loss_tokens_) : 0.0;
    if (options_.keep_hypotheses) s.hypotheses = hypotheses_;
    return s;
}

Result<EvalScores> evaluate_heldout(const Model& model, const Task& task, const EvalOptions& options) {
    if (auto st = check_model_for(model, task); !st) return st.error();
    HeldoutEval eval(task, options);
    if (auto st = eval.run_chunk(model, std::numeric_limits<size_t>::max()); !st) return st.error();
    return eval.scores();
}

int heldout_decode_cap(const Task& task, size_t n_examples) {
    const auto& heldout = task.heldout();
    const size_t n = examples_of(task, n_examples);
    size_t longest = 0;
    for (size_t i = 0; i < n; ++i) longest = std::max(longest, heldout[i].tgt.size());
    return static_cast<int>(2 * longest + 2);
}

}  // namespace attnlab
