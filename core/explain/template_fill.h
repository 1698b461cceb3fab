// {name} placeholders in explanation texts: checking their syntax and filling them in.
// Every '{' opens a placeholder; names are letters, digits and '_'.
#pragma once

#include "result.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

// The value of a placeholder, or nullopt when the name is unknown.
using PlaceholderLookup = std::function<std::optional<std::string>(std::string_view name)>;

// An error names the first malformed placeholder ("unclosed {", "empty {}", "bad name {a b}").
Status check_template(std::string_view text);
// The text with every placeholder replaced; an error names the first unknown or malformed one.
Result<std::string> fill_template(std::string_view text, const PlaceholderLookup& lookup);

}  // namespace attnlab
