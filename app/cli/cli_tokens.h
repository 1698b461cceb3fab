// Tokens named on the command line and printed back: as the model's vocabulary writes them
// ("Ġcat", "##s", "사과") or by id, on one stack's side: by default the side the model predicts
// (its last stack).
#pragma once

#include "model.h"
#include "param_names.h"
#include "result.h"

#include <optional>

#include <string>
#include <vector>

namespace attnlab::cli {

// The vocabulary's text, or "#id" without one.
std::string token_text(const Model& model, int id, std::optional<Stack> stack = std::nullopt);
std::string shown(const std::string& token);  // JSON-quoted: spaces and bytes visible

// The last stack's vocabulary and token table: what the model reads and predicts there.
struct TokenTable {
    const std::optional<Vocab>* vocab;
    const Tensor* table;  // (V, C)
};
TokenTable token_table(const Model& model);

// A token as written in the vocabulary, or (is_id) an id.
Result<int> token_id(const Model& model, const std::string& text, bool is_id,
                     std::optional<Stack> stack = std::nullopt);
// "A,B,C" of tokens, or (is_id) of ids.
Result<std::vector<int>> token_list(const Model& model, const std::string& list, bool is_id,
                                    std::optional<Stack> stack = std::nullopt);

}  // namespace attnlab::cli
