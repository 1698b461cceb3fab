// A small, strict flag parser: anything it does not know is an error.
#include "args.h"

namespace attnlab::cli {

std::optional<std::string> Args::get(const std::string& name) const {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
}

std::optional<std::string> parse_args(const std::vector<std::string>& argv, const ArgSpec& spec, Args& out) {
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() > 2 && a.starts_with("--")) {
            const std::string name = a.substr(2);
            if (spec.switch_flags.count(name)) {
                out.switches.insert(name);
            } else if (spec.value_flags.count(name)) {
                if (i + 1 >= argv.size()) return "--" + name + " needs a value";
                out.values[name] = argv[++i];
            } else {
                return "unknown option " + a;
            }
        } else {
            out.positional.push_back(a);
        }
    }
    const size_t most = spec.n_positional + spec.n_optional_positional;
    if (out.positional.size() < spec.n_positional || out.positional.size() > most)
        return "expected " + std::to_string(spec.n_positional) +
               (most > spec.n_positional ? " to " + std::to_string(most) : "") + " file argument(s), got " +
               std::to_string(out.positional.size());
    return std::nullopt;
}

}  // namespace attnlab::cli
