// CircuitsTool: the chosen head's circuit over the chosen tokens (head_circuits.h), kept until the weights or the
// choice change, and the whole vocabulary ranked for one token (token_ranking.h).
#include "circuits_tool.h"

#include "param_names.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace attnlab::gui {

namespace {

// The typed tokens (the first unknown one in *unknown), or the sentence's, each once, at most `limit`.
std::vector<int> chosen_ids(const std::optional<Vocab>& vocab, const std::vector<int>& sentence,
                            const std::string& typed, size_t limit, std::string* unknown) {
    std::vector<int> ids;
    if (typed.empty() || !vocab) {
        ids = sentence;
    } else {
        std::istringstream words(typed);
        for (std::string w; words >> w;) {
            if (auto id = vocab->find(w))
                ids.push_back(*id);
            else if (unknown->empty())
                *unknown = w;
        }
    }
    std::vector<int> unique;
    std::set<int> seen;
    for (int id : ids)
        if (seen.insert(id).second && unique.size() < limit) unique.push_back(id);
    return unique;
}

std::vector<const Tensor*> tensor_identities(const Weights& weights) {
    std::vector<const Tensor*> out;
    for (const auto& [name, tensor] : weights.all()) out.push_back(tensor.get());
    return out;
}

}  // namespace

Result<Mat> circuit_matrix(const ModelConfig& config, const Weights& weights, const HeadRef& head, bool ov,
                           const std::vector<int>& ids, int offset) {
    if (!ov) return qk_circuit(config, weights, head, ids, ids, offset);
    auto logits = ov_circuit(config, weights, head, ids);  // (n, V)
    if (!logits) return logits.error();
    Mat square(logits->rows(), static_cast<Eigen::Index>(ids.size()));
    for (size_t j = 0; j < ids.size(); ++j) square.col(static_cast<Eigen::Index>(j)) = logits->col(ids[j]);
    return square;
}

Result<CircuitRanking> circuit_ranking(const ModelConfig& config, const Weights& weights, const HeadRef& head, bool ov,
                                       int id, int offset, int k) {
    if (ov) {
        auto logits = ov_circuit(config, weights, head, {id});  // (1, V)
        if (!logits) return logits.error();
        return CircuitRanking{rank_tokens(logits->row(0), k), rank_tokens(logits->row(0), k, false)};
    }
    const Tensor* table = weights.find(embedding_params(config, head.stack).tokens);  // (V, C); none: qk_circuit says why
    const int V = table ? static_cast<int>(table->dim(0)) : 0;
    auto scores = qk_circuit(config, weights, head, {id}, every_token(V), offset);  // (1, V)
    if (!scores) return scores.error();
    return CircuitRanking{rank_tokens(scores->row(0), k), {}};
}

Stack circuit_stack(const ModelConfig& config, const CircuitChoice& choice) {
    return !config.has_decoder() || (config.has_encoder() && choice.encoder) ? Stack::encoder : Stack::decoder;
}

const std::optional<Vocab>& stack_vocab(const Model& model, Stack stack) {
    return stack == Stack::encoder ? model.src_vocab : model.tgt_vocab;
}

bool CircuitsTool::update(const Stepper& stepper, const Model& model, const CircuitChoice& choice) {
    const ModelConfig& config = stepper.config();
    const HeadRef head{circuit_stack(config, choice), choice.layer, choice.head};
    const std::vector<int>& sentence =
        head.stack == Stack::encoder ? stepper.inputs().src_ids : stepper.inputs().tgt_ids;
    const int offset = choice.rope_offset;
    std::vector<const Tensor*> weights = tensor_identities(stepper.weights());
    if (version_ != 0 && weights == weights_ && choice.ov == ov_ && head.stack == head_.stack &&
        head.layer == head_.layer && head.head == head_.head && offset == offset_ && choice.tokens == typed_ &&
        sentence == sentence_)
        return false;
    weights_ = std::move(weights);
    ov_ = choice.ov;
    head_ = head;
    offset_ = offset;
    typed_ = choice.tokens;
    sentence_ = sentence;
    ++version_;
    ranked_id_ = -1;
    ranking_ = {};
    unknown_.clear();
    const std::optional<Vocab>& vocab = stack_vocab(model, head.stack);
    ids_ = chosen_ids(vocab, sentence, typed_, kMaxTokens, &unknown_);
    row_labels_.clear();
    col_labels_.clear();
    range_ = 1.0f;
    if (ids_.empty()) {
        matrix_ = Error{"no tokens"};
        return true;
    }
    matrix_ = circuit_matrix(config, stepper.weights(), head, ov_, ids_, offset);
    const std::optional<Vocab>& columns = ov_ ? stack_vocab(model, last_stack(config)) : vocab;  // keys: the head's
    for (int id : ids_) {
        row_labels_.push_back(token_or_id(vocab, id));
        col_labels_.push_back(token_or_id(columns, id));
    }
    if (matrix_ && matrix_->size() > 0) range_ = std::max(1e-6f, matrix_->cwiseAbs().maxCoeff());
    return true;
}

const CircuitRanking& CircuitsTool::ranking(const Stepper& stepper, int focus) {
    const int id = ids_.at(static_cast<size_t>(focus));
    if (ranked_id_ == id) return ranking_;
    ranked_id_ = id;
    auto ranked = circuit_ranking(stepper.config(), stepper.weights(), head_, ov_, id, offset_, kRanked);
    ranking_ = ranked ? std::move(*ranked) : CircuitRanking{};
    return ranking_;
}

}  // namespace attnlab::gui
