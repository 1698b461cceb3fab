// Vocab construction, validation and JSON round trip.
#include "text/vocab.h"

#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <cassert>

namespace attnlab {

Result<Vocab> Vocab::from_tokens(std::vector<std::string> tokens) {
    if (tokens.empty()) return Error{"vocabulary is empty"};
    Vocab vocab;
    vocab.ids_.reserve(tokens.size());
    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        if (t.empty()) return Error{"vocabulary token " + std::to_string(i) + " is empty"};
        if (!is_valid_utf8(t)) {
            Result<std::vector<std::string>> cps = split_code_points(t);  // for the offset
            return Error{"vocabulary token " + std::to_string(i) + ": " + cps.error().message};
        }
        const auto [it, inserted] = vocab.ids_.emplace(t, static_cast<int>(i));
        if (!inserted) {
            // Valid UTF-8 by now, but it may hold control characters: quote it as JSON does.
            return Error{"duplicate vocabulary token " + nlohmann::json(t).dump() + " at ids " +
                         std::to_string(it->second) + " and " + std::to_string(i)};
        }
    }
    vocab.tokens_ = std::move(tokens);
    return vocab;
}

Result<Vocab> Vocab::from_json(std::string_view json_array_text) {
    using nlohmann::json;
    json doc;
    try {
        doc = json::parse(json_array_text);
    } catch (const json::exception& e) {
        return Error{std::string("vocabulary JSON: ") + e.what()};
    }
    if (!doc.is_array()) {
        return Error{std::string("vocabulary JSON must be an array of strings, got ") + doc.type_name()};
    }
    std::vector<std::string> tokens;
    tokens.reserve(doc.size());
    for (size_t i = 0; i < doc.size(); ++i) {
        json& element = doc[i];
        if (!element.is_string()) {
            return Error{"vocabulary JSON element " + std::to_string(i) + " has type " + element.type_name() +
                         ", expected string"};
        }
        tokens.push_back(std::move(element.get_ref<std::string&>()));
    }
    return from_tokens(std::move(tokens));
}

Result<Vocab> Vocab::from_lines(std::string_view text) {
    constexpr std::string_view kBom = "\xEF\xBB\xBF";
    if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
    std::vector<std::string> tokens;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!line.empty()) tokens.emplace_back(line);
    }
    return from_tokens(std::move(tokens));
}

std::string Vocab::to_json() const {
    // Tokens were checked as UTF-8 on construction, so the strict dump cannot throw.
    return nlohmann::json(tokens_).dump(-1, ' ', /*ensure_ascii=*/false);
}

const std::string& Vocab::token(int id) const {
    assert(id >= 0 && id < size());
    return tokens_[static_cast<size_t>(id)];
}

std::optional<int> Vocab::find(std::string_view token) const {
    const auto it = ids_.find(token);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
}

Vocab default_char_vocab() {
    std::vector<std::string> tokens = {kPadToken, kSosToken, kEosToken, kUnkToken};
    for (char c = 32; c <= 126; ++c) tokens.emplace_back(1, c);
    Result<Vocab> vocab = Vocab::from_tokens(std::move(tokens));
    assert(vocab.ok());
    return std::move(vocab).value();
}

std::string token_or_id(const std::optional<Vocab>& vocab, int id) {
    return vocab && id >= 0 && id < vocab->size() ? vocab->token(id) : "#" + std::to_string(id);
}

}  // namespace attnlab
