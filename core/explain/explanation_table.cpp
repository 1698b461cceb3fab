// Reads and checks a language file: {"language", "pending", "terms": {...}, "steps": {kind: {5 texts}},
// "backward": {backward kind: {3 texts}}}.
#include "explain/explanation_table.h"

#include "explain/backward_kind.h"
#include "explain/step_kind.h"
#include "explain/template_fill.h"
#include "io/file_bytes.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace attnlab {

namespace {

using json = nlohmann::json;

constexpr const char* kTextFields[] = {"title", "formula", "what", "why", "numbers"};

// A key as a message shows it: JSON-quoted, so a hostile key stays one line.
std::string quoted(const std::string& key) { return json(key).dump(-1, ' ', false, json::error_handler_t::replace); }

// A non-empty string with well-formed placeholders, or an error naming `where`.
Result<std::string> template_text(const json& value, const std::string& where) {
    if (!value.is_string() || value.get_ref<const std::string&>().empty())
        return Error{where + " must be a non-empty string"};
    const std::string& text = value.get_ref<const std::string&>();
    if (auto st = check_template(text); !st) return Error{where + ": " + st.error().message};
    return text;
}

Result<StepTexts> step_texts(const json& entry, const std::string& where) {
    if (!entry.is_object()) return Error{where + " must be an object"};
    for (const auto& item : entry.items()) {
        const std::string& key = item.key();  // a plain reference: clang 14 cannot capture a structured binding
        if (std::find_if(std::begin(kTextFields), std::end(kTextFields), [&](const char* f) { return key == f; }) ==
            std::end(kTextFields))
            return Error{where + ": unknown field " + quoted(key)};
    }
    StepTexts texts;
    std::string* fields[] = {&texts.title, &texts.formula, &texts.what, &texts.why, &texts.numbers};
    for (size_t i = 0; i < std::size(kTextFields); ++i) {
        if (!entry.contains(kTextFields[i])) return Error{where + ": missing \"" + kTextFields[i] + "\""};
        auto text = template_text(entry.at(kTextFields[i]), where + "." + kTextFields[i]);
        if (!text) return text.error();
        *fields[i] = std::move(*text);
    }
    return texts;
}

Status read_terms(const json& terms, ExplanationTable& table) {
    if (!terms.is_object()) return Error{"\"terms\" must be an object"};
    for (const auto& [key, value] : terms.items()) {
        if (!value.is_string()) return Error{"terms." + quoted(key) + " must be a string"};
        table.terms[key] = value.get<std::string>();
    }
    return ok_status();
}

Status read_steps(const json& steps, ExplanationTable& table) {
    if (!steps.is_object()) return Error{"\"steps\" must be an object"};
    for (const auto& [key, value] : steps.items()) {
        if (std::find(std::begin(kExplanationKinds), std::end(kExplanationKinds), key) == std::end(kExplanationKinds))
            return Error{"unknown step kind " + quoted(key)};
        auto texts = step_texts(value, "steps." + key);
        if (!texts) return texts.error();
        table.steps[key] = std::move(*texts);
    }
    for (std::string_view kind : kExplanationKinds)
        if (!table.steps.count(kind)) return Error{"no texts for step kind \"" + std::string(kind) + "\""};
    return ok_status();
}

Status read_backward(const json& backward, ExplanationTable& table) {
    if (!backward.is_object()) return Error{"\"backward\" must be an object"};
    constexpr const char* kFields[] = {"title", "formula", "what"};
    for (const auto& [key, value] : backward.items()) {
        if (std::find(std::begin(kBackwardKinds), std::end(kBackwardKinds), key) == std::end(kBackwardKinds))
            return Error{"unknown backward kind " + quoted(key)};
        const std::string where = "backward." + key;
        if (!value.is_object()) return Error{where + " must be an object"};
        BackwardTexts texts;
        std::string* fields[] = {&texts.title, &texts.formula, &texts.what};
        for (const auto& item : value.items())
            if (std::find_if(std::begin(kFields), std::end(kFields), [&](const char* f) { return item.key() == f; }) ==
                std::end(kFields))
                return Error{where + ": unknown field " + quoted(item.key())};
        for (size_t i = 0; i < std::size(kFields); ++i) {
            if (!value.contains(kFields[i]) || !value[kFields[i]].is_string() ||
                value[kFields[i]].get_ref<const std::string&>().empty())
                return Error{where + "." + kFields[i] + " must be a non-empty string"};
            *fields[i] = value[kFields[i]].get<std::string>();
        }
        table.backward[key] = std::move(texts);
    }
    for (std::string_view kind : kBackwardKinds)
        if (!table.backward.count(kind)) return Error{"no texts for backward kind \"" + std::string(kind) + "\""};
    return ok_status();
}

Result<ExplanationTable> parse_checked(std::string_view json_text, Language language) {
    json j;
    try {
        j = json::parse(json_text);
    } catch (const json::parse_error& e) {
        return Error{"not valid JSON (at byte " + std::to_string(e.byte) + ")"};
    } catch (const json::exception&) {  // e.g. a number too large for a double
        return Error{"not valid JSON"};
    }
    if (!j.is_object()) return Error{"must be a JSON object"};
    for (const auto& [key, value] : j.items())
        if (key != "language" && key != "pending" && key != "terms" && key != "steps" && key != "backward")
            return Error{"unknown field " + quoted(key)};
    const std::string code = language_code(language);
    if (!j.contains("language") || j["language"] != code) return Error{"\"language\" must be \"" + code + "\""};
    ExplanationTable table;
    table.language = language;
    if (!j.contains("pending") || !j["pending"].is_string()) return Error{"\"pending\" must be a string"};
    table.pending = j["pending"].get<std::string>();
    if (auto st = read_terms(j.contains("terms") ? j["terms"] : json(), table); !st) return st.error();
    if (auto st = read_steps(j.contains("steps") ? j["steps"] : json(), table); !st) return st.error();
    if (auto st = read_backward(j.contains("backward") ? j["backward"] : json(), table); !st) return st.error();
    return table;
}

}  // namespace

const char* language_code(Language language) { return language == Language::korean ? "ko" : "en"; }

Result<ExplanationTable> parse_explanation_table(std::string_view json_text, Language language,
                                                 const std::string& source) {
    auto table = parse_checked(json_text, language);
    // display_path escapes control bytes and broken UTF-8, so the message stays one line.
    if (!table) return Error{io::display_path(source + ": " + table.error().message)};
    return table;
}

Result<ExplanationTable> load_explanation_table(const std::string& assets_dir, Language language) {
    const std::string path = assets_dir + "/explanations/" + language_code(language) + ".json";
    auto bytes = io::read_file_bytes(path);
    if (!bytes) return bytes.error();
    return parse_explanation_table(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()),
                                   language, path);
}

}  // namespace attnlab
