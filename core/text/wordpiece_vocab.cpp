// vocab.txt, checked line by line.
#include "text/wordpiece_vocab.h"

#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <cassert>
#include <string>
#include <unordered_map>

namespace attnlab {

Result<Vocab> parse_wordpiece_vocab(const TokenizerFile& file) {
    const auto line_error = [&](size_t line, const std::string& what) {
        return Error{std::string(file.name) + " line " + std::to_string(line) + ": " + what};
    };
    std::vector<std::string> tokens;
    std::unordered_map<std::string_view, size_t> line_of;  // token -> its line, views into file.text
    std::string_view rest = file.text;
    for (size_t line_number = 1; !rest.empty(); ++line_number) {
        const size_t newline = rest.find('\n');
        std::string_view line = rest.substr(0, newline);
        rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

        if (line.empty()) return line_error(line_number, "empty line; every line is a token");
        if (!is_valid_utf8(line)) return line_error(line_number, split_code_points(line).error().message);
        const auto [it, inserted] = line_of.emplace(line, line_number);
        if (!inserted) {
            return line_error(line_number, "token " + nlohmann::json(std::string(line)).dump() + " repeats line " +
                                               std::to_string(it->second));
        }
        tokens.emplace_back(line);
    }
    if (tokens.empty()) return Error{std::string(file.name) + ": no tokens"};
    Result<Vocab> vocab = Vocab::from_tokens(std::move(tokens));
    assert(vocab.ok());  // non-empty, valid UTF-8, unique: checked above
    return vocab;
}

}  // namespace attnlab
