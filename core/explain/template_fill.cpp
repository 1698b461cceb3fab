// Scans a template once, left to right, copying text and substituting {name}.
#include "explain/template_fill.h"

#include <algorithm>

namespace attnlab {

namespace {

bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string excerpt(std::string_view text, size_t at) { return "\"" + std::string(text.substr(at, 24)) + "\""; }

}  // namespace

Result<std::string> fill_template(std::string_view text, const PlaceholderLookup& lookup) {
    std::string out;
    size_t from = 0;
    for (size_t at = text.find_first_of("{}"); at != std::string_view::npos; at = text.find_first_of("{}", from)) {
        if (text[at] == '}') return Error{"} without { at " + excerpt(text, at)};
        const size_t close = text.find('}', at);
        if (close == std::string_view::npos) return Error{"unclosed { at " + excerpt(text, at)};
        const std::string_view name = text.substr(at + 1, close - at - 1);
        if (name.empty() || !std::all_of(name.begin(), name.end(), is_name_char))
            return Error{"bad placeholder {" + std::string(name) + "}"};
        const std::optional<std::string> value = lookup(name);
        if (!value) return Error{"unknown placeholder {" + std::string(name) + "}"};
        out.append(text.substr(from, at - from)).append(*value);
        from = close + 1;
    }
    return out.append(text.substr(from));
}

Status check_template(std::string_view text) {
    auto filled = fill_template(text, [](std::string_view) { return std::optional<std::string>(""); });
    if (!filled) return filled.error();
    return ok_status();
}

}  // namespace attnlab
