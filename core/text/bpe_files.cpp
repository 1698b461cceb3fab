// vocab.json and merges.txt, checked entry by entry, every error one line naming the file.
#include "text/bpe_files.h"

#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace attnlab {

namespace {

using nlohmann::json;

// A token as messages show it: a JSON string, so control characters stay escaped on one line.
std::string json_quoted(std::string_view token) {
    return json(std::string(token)).dump(-1, ' ', false, json::error_handler_t::replace);
}

Error file_error(std::string_view file_name, const std::string& what) {
    return Error{std::string(file_name) + ": " + what};
}

Error line_error(std::string_view file_name, size_t line, const std::string& what) {
    return Error{std::string(file_name) + " line " + std::to_string(line) + ": " + what};
}

// The id of one vocab.json entry, if it is an integer in 0..n-1.
std::optional<size_t> entry_id(const json& value, size_t n) {
    if (value.is_number_unsigned()) {
        const auto id = value.get<uint64_t>();
        if (id < n) return static_cast<size_t>(id);
    } else if (value.is_number_integer()) {
        const auto id = value.get<int64_t>();
        if (id >= 0 && static_cast<uint64_t>(id) < n) return static_cast<size_t>(id);
    }
    return std::nullopt;
}

}  // namespace

Result<Vocab> parse_bpe_vocab(const TokenizerFile& file) {
    json doc;
    try {
        doc = json::parse(file.text);
    } catch (const json::exception& e) {
        return file_error(file.name, replace_invalid_utf8(e.what()));  // the parser's message names line and column
    }
    if (!doc.is_object()) {
        return file_error(file.name, std::string("expected a JSON object of token -> id, got ") + doc.type_name());
    }
    if (doc.empty()) return file_error(file.name, "no tokens");

    const size_t n = doc.size();
    std::vector<std::string> tokens(n);
    std::vector<bool> taken(n, false);
    for (const auto& [token, value] : doc.items()) {
        const std::optional<size_t> id = entry_id(value, n);
        if (!id) {
            const std::string shown = value.is_number() ? value.dump() : std::string("of type ") + value.type_name();
            return file_error(file.name, "token " + json_quoted(token) + " has id " + shown +
                                             "; ids must be the integers 0.." + std::to_string(n - 1));
        }
        if (taken[*id]) {
            return file_error(file.name, "tokens " + json_quoted(tokens[*id]) + " and " + json_quoted(token) +
                                             " both have id " + std::to_string(*id));
        }
        taken[*id] = true;
        tokens[*id] = token;
    }
    // n distinct ids below n: every id is taken. The JSON parser checked the UTF-8, keys are unique.
    Result<Vocab> vocab = Vocab::from_tokens(std::move(tokens));
    if (!vocab) return file_error(file.name, vocab.error().message);  // an empty token
    return vocab;
}

Result<BpeMergeTable> parse_bpe_merges(const TokenizerFile& file, const Vocab& vocab, std::string_view vocab_name) {
    BpeMergeTable table;
    std::string_view rest = file.text;
    for (size_t line_number = 1; !rest.empty(); ++line_number) {
        const size_t newline = rest.find('\n');
        std::string_view line = rest.substr(0, newline);
        rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.starts_with("#version")) continue;

        if (!is_valid_utf8(line)) return line_error(file.name, line_number, split_code_points(line).error().message);
        const size_t space = line.find(' ');
        const std::string_view left = line.substr(0, space);
        const std::string_view right = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
        if (left.empty() || right.empty() || right.find(' ') != std::string_view::npos) {
            return line_error(file.name, line_number,
                              "expected two symbols separated by one space, got " + json_quoted(line));
        }
        const std::string joined = std::string(left) + std::string(right);
        const std::optional<int> left_id = vocab.find(left), right_id = vocab.find(right),
                                 joined_id = vocab.find(joined);
        for (const auto& [symbol, id] : {std::pair{std::string_view(left), left_id},
                                         {std::string_view(right), right_id},
                                         {std::string_view(joined), joined_id}}) {
            if (!id) {
                return line_error(file.name, line_number,
                                  json_quoted(symbol) + " is not a token of " + std::string(vocab_name));
            }
        }
        table.add(*left_id, *right_id, *joined_id);
    }
    return table;
}

}  // namespace attnlab
