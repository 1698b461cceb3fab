// Command-line arguments: one subcommand, positionals, and --flag VALUE pairs checked
// against the flags the subcommand accepts.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace attnlab::cli {

struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;  // --name value
    std::set<std::string> switches;             // --name (no value)

    std::optional<std::string> get(const std::string& name) const;
    bool has(const std::string& name) const { return switches.count(name) || values.count(name); }
};

struct ArgSpec {
    std::set<std::string> value_flags;   // take one value
    std::set<std::string> switch_flags;  // take none
    size_t n_positional = 0;
    size_t n_optional_positional = 0;  // may follow the required ones
};

// Returns an error message for an unknown flag, a flag without its value, or a wrong count of positionals.
std::optional<std::string> parse_args(const std::vector<std::string>& argv, const ArgSpec& spec, Args& out);

}  // namespace attnlab::cli
