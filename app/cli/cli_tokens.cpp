#include "cli_tokens.h"

#include "cli_common.h"
#include "param_names.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace attnlab::cli {

namespace {

const std::optional<Vocab>& side_vocab(const Model& model, std::optional<Stack> stack) {
    return stack.value_or(last_stack(model.config)) == Stack::decoder ? model.tgt_vocab : model.src_vocab;
}

}  // namespace

std::string token_text(const Model& model, int id, std::optional<Stack> stack) {
    return token_or_id(side_vocab(model, stack), id);
}

std::string shown(const std::string& token) {
    return nlohmann::json(token).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

TokenTable token_table(const Model& model) {
    const Stack stack = last_stack(model.config);
    return {&side_vocab(model, stack), &model.weights.at(embedding_params(model.config, stack).tokens)};
}

Result<int> token_id(const Model& model, const std::string& text, bool is_id, std::optional<Stack> stack) {
    if (is_id) {
        auto n = parse_integer(text);
        if (!n) return Error{"'" + text + "' is not a token id"};
        return static_cast<int>(*n);
    }
    const std::optional<Vocab>& vocab = side_vocab(model, stack);
    if (!vocab) return Error{"this model has no vocabulary; give token ids"};
    auto id = vocab->find(text);
    if (!id) return Error{shown(text) + " is not a token of the vocabulary"};
    return *id;
}

Result<std::vector<int>> token_list(const Model& model, const std::string& list, bool is_id,
                                    std::optional<Stack> stack) {
    std::vector<int> ids;
    for (size_t at = 0; at <= list.size();) {
        const size_t comma = std::min(list.find(',', at), list.size());
        auto id = token_id(model, list.substr(at, comma - at), is_id, stack);
        if (!id) return id.error();
        ids.push_back(*id);
        at = comma + 1;
    }
    return ids;
}

}  // namespace attnlab::cli
