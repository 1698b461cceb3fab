// The texts of one language file (assets/explanations/en.json, ko.json): for every step kind
// a title, a formula, what it computes, why, and its formula with numbers, all as templates
// with {placeholders}; plus the words placeholders may name (terms) and the note shown
// before a step has run.
#pragma once

#include "result.h"

#include <map>
#include <string>
#include <string_view>

namespace attnlab {

enum class Language { english, korean };
const char* language_code(Language language);  // "en" | "ko": the file's name and its "language" field

struct StepTexts {
    std::string title, formula, what, why, numbers;  // templates
};

struct BackwardTexts {
    std::string title, formula, what;  // plain text: the chain rule through one kind of step
};

struct ExplanationTable {
    Language language = Language::english;
    std::string pending;                                         // instead of the numbers, before the step has run
    std::map<std::string, std::string> terms;                    // term key -> word in this language
    std::map<std::string, StepTexts, std::less<>> steps;         // kExplanationKinds -> texts
    std::map<std::string, BackwardTexts, std::less<>> backward;  // kBackwardKinds -> texts
};

// Parses a language file. It must name `language`, hold a non-empty text for every field of
// every kind in kExplanationKinds and of every backward kind in kBackwardKinds, nothing else, and
// well-formed {placeholders}. Errors are one
// line and start with `source` (the file name).
Result<ExplanationTable> parse_explanation_table(std::string_view json_text, Language language,
                                                 const std::string& source);
// Reads <assets>/explanations/<code>.json.
Result<ExplanationTable> load_explanation_table(const std::string& assets_dir, Language language);

}  // namespace attnlab
