// Held-out evaluation: decode every source, compare with its reference, and measure the loss.
#include "train/evaluate.h"

#include "train/batch_decode.h"
#include "train/grad_ops.h"
#include "train/metrics.h"
#include "train/transformer_grad.h"

#include <algorithm>

namespace attnlab {

namespace {

Sentence words_of(const Vocab& vocab, const std::vector<int>& ids) {
    Sentence words;
    words.reserve(ids.size());
    for (int id : ids) words.push_back(vocab.token(id));
    return words;
}

}  // namespace

Result<EvalScores> evaluate_heldout(const Model& model, const Task& task, const EvalOptions& options) {
    if (model.config.arch != Arch::encoder_decoder) return Error{"evaluation needs an encoder_decoder model"};
    if (!model.src_vocab || !model.tgt_vocab || model.src_vocab->tokens() != task.src_vocab().tokens() ||
        model.tgt_vocab->tokens() != task.tgt_vocab().tokens())
        return Error{"the model's vocabularies are not those of task '" + task.name() + "'"};
    const auto& heldout = task.heldout();
    const size_t n = options.max_examples == 0 ? heldout.size() : std::min(options.max_examples, heldout.size());
    EvalScores scores;
    scores.n_examples = static_cast<int>(n);
    if (n == 0) return scores;

    std::vector<TokenPair> pairs;
    std::vector<std::vector<int>> sources;
    for (size_t i = 0; i < n; ++i) {
        pairs.push_back(to_token_pair(task, heldout[i]));
        sources.push_back(pairs.back().src);
    }
    for (const auto& p : pairs)
        if (static_cast<int>(std::max(p.src.size(), p.tgt.size())) + 1 > model.config.max_len)
            return Error{"a held-out example is longer than the model's max_len"};

    std::vector<std::vector<int>> decoded;
    const int max_new = model.config.max_len - 1;
    if (options.beam_size <= 1) {
        decoded = greedy_decode_batch(model.config, model.weights, sources, max_new);
    } else {
        BeamOptions beam;
        beam.beam_size = options.beam_size;
        beam.max_new_tokens = max_new;
        for (const auto& source : sources) decoded.push_back(beam_decode(model.config, model.weights, source, beam));
    }
    std::vector<Sentence> hypotheses, references;
    for (size_t i = 0; i < n; ++i) {
        hypotheses.push_back(words_of(task.tgt_vocab(), decoded[i]));
        references.push_back(heldout[i].tgt);
    }
    scores.exact_match = exact_match(hypotheses, references);
    scores.token_accuracy = token_accuracy(hypotheses, references);
    scores.bleu = corpus_bleu(hypotheses, references);
    scores.hypotheses = std::move(hypotheses);

    const Batch batch = make_batch(pairs, model.config);
    auto logits = batch_logits(model.config, model.weights, batch);
    if (!logits) return logits.error();
    scores.loss = cross_entropy_forward_backward(*logits, batch.tgt_out, model.config.pad_id, options.label_smoothing).loss;
    return scores;
}

}  // namespace attnlab
