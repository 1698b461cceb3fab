// Every UI string has its Korean. Reads the GUI's sources (app/gui) and finds each English string
// the UI translates: the literals passed to tr(korean, "…") and ctx.t("…") (the branches of a ?:
// and adjacent literals, "a " "b", included) and those marked tr_noop("…") for a later ctx.t. Each
// must have a Korean entry that contains Hangul or is deliberately the same (symbols, formulas).
// Then the strings drawn without either: a literal with an English word passed straight to an ImGui
// widget is a string no Korean user can read.
#include "i18n.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using attnlab::gui::korean_text;

struct Found {
    std::string where;  // file:line
    std::string text;   // the literal, escapes decoded, adjacent literals joined
};

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The end (one past the closing quote) of the string or character literal opening at `i`.
size_t literal_end(const std::string& s, size_t i) {
    const char quote = s[i];
    for (size_t j = i + 1; j < s.size(); ++j) {
        if (s[j] == '\\')
            ++j;
        else if (s[j] == quote)
            return j + 1;
    }
    return s.size();
}

// Whether a raw string literal R"delim( … )delim" opens at `i`; if so, its end.
size_t raw_literal_end(const std::string& s, size_t i) {
    if (s[i] != 'R' || i + 1 >= s.size() || s[i + 1] != '"' || (i > 0 && is_ident(s[i - 1]))) return 0;
    const size_t open = s.find('(', i + 2);
    if (open == std::string::npos) return 0;
    const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
    const size_t end = s.find(close, open);
    return end == std::string::npos ? s.size() : end + close.size();
}

// The source with comments blanked (newlines kept, so lines still count); literals untouched.
std::string strip_comments(const std::string& s) {
    std::string out = s;
    for (size_t i = 0; i < s.size();) {
        if (size_t e = raw_literal_end(s, i)) {
            i = e;
        } else if (s[i] == '"' || (s[i] == '\'' && (i == 0 || !std::isxdigit(static_cast<unsigned char>(s[i - 1]))))) {
            i = literal_end(s, i);  // a quote after a digit is a digit separator (1'000), not a literal
        } else if (s.compare(i, 2, "//") == 0) {
            const size_t e = std::min(s.find('\n', i), s.size());
            std::fill(out.begin() + static_cast<long>(i), out.begin() + static_cast<long>(e), ' ');
            i = e;
        } else if (s.compare(i, 2, "/*") == 0) {
            const size_t e = std::min(s.find("*/", i + 2) + 2, s.size());
            for (size_t j = i; j < e; ++j)
                if (out[j] != '\n') out[j] = ' ';
            i = e;
        } else {
            ++i;
        }
    }
    return out;
}

std::string decode_escapes(const std::string& body) {
    std::string out;
    for (size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '\\' || i + 1 >= body.size()) {
            out += body[i];
            continue;
        }
        const char c = body[++i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c;  // \" \\ \' as themselves
    }
    return out;
}

// The string literals in `expr`, adjacent ones ("a " "b") joined into one.
std::vector<std::string> literals_in(const std::string& expr) {
    std::vector<std::string> out;
    bool adjacent = false;  // only whitespace since the last literal
    for (size_t i = 0; i < expr.size();) {
        std::string body;
        size_t end = 0;
        if (size_t e = raw_literal_end(expr, i)) {
            const size_t open = expr.find('(', i);
            const size_t delim = open - i - 2;
            body = expr.substr(open + 1, e - open - 1 - delim - 2);
            end = e;
        } else if (expr[i] == '"') {
            end = literal_end(expr, i);
            body = decode_escapes(expr.substr(i + 1, end - i - 2));
        } else if (expr[i] == '\'') {
            i = literal_end(expr, i);
            adjacent = false;
            continue;
        }
        if (end) {
            if (adjacent)
                out.back() += body;
            else
                out.push_back(body);
            adjacent = true;
            i = end;
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(expr[i]))) adjacent = false;
        ++i;
    }
    return out;
}

// The arguments of the call whose '(' is at `open`, split at its top-level commas; `end` gets the ')'.
std::vector<std::string> call_arguments(const std::string& s, size_t open, size_t* end = nullptr) {
    std::vector<std::string> args;
    int depth = 0;
    size_t start = open + 1;
    for (size_t i = open; i < s.size();) {
        if (size_t e = raw_literal_end(s, i)) {
            i = e;
            continue;
        }
        const char c = s[i];
        if (c == '"' || c == '\'') {
            i = literal_end(s, i);
            continue;
        }
        if (c == '(' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0) {
                args.push_back(s.substr(start, i - start));
                if (end) *end = i;
                return args;
            }
        }
        if (c == ',' && depth == 1) {
            args.push_back(s.substr(start, i - start));
            start = i + 1;
        }
        ++i;
    }
    return args;
}

// Where in `s` the identifier `name` is called: the positions of the '(' after it.
std::vector<size_t> calls_of(const std::string& s, const std::string& name) {
    std::vector<size_t> opens;
    for (size_t i = s.find(name); i != std::string::npos; i = s.find(name, i + 1)) {
        if (i > 0 && is_ident(s[i - 1])) continue;
        size_t j = i + name.size();
        while (j < s.size() && s[j] == ' ') ++j;
        if (j < s.size() && s[j] == '(') opens.push_back(j);
    }
    return opens;
}

// "file:line" of position `at` in `s`.
std::string where(const std::string& s, const std::string& file, size_t at) {
    return file + ":" + std::to_string(1 + std::count(s.begin(), s.begin() + static_cast<long>(at), '\n'));
}

// The translated strings in one source text: tr(…), ctx.t(…) (t called as a member) and tr_noop(…).
std::vector<Found> translated_strings(const std::string& source, const std::string& file) {
    const std::string s = strip_comments(source);
    std::vector<Found> out;
    const auto line_of = [&](size_t at) { return where(s, file, at); };
    for (const char* name : {"t", "tr", "tr_noop"}) {
        for (size_t open : calls_of(s, name)) {
            const size_t at = open - std::string(name).size();
            if (std::string(name) == "t" &&
                !(at > 0 && (s[at - 1] == '.' || (at > 1 && s.compare(at - 2, 2, "->") == 0))))
                continue;  // a member call (ctx.t, f.ctx.t), not some other t(
            std::string all;
            for (const std::string& a : call_arguments(s, open)) all += a + "\n";
            for (const std::string& text : literals_in(all)) out.push_back({line_of(at), text});
        }
    }
    return out;
}

bool calls_translation(const std::string& expr) {
    for (const char* name : {"t", "tr", "tr_noop"})
        if (!calls_of(expr, name).empty()) return true;
    return false;
}

// ImGui calls whose string arguments the user reads (labels, hints, tooltips, text), and ImDrawList's AddText.
const char* const kDrawingCalls[] = {
    "Text",        "TextUnformatted", "TextWrapped",       "TextDisabled",  "TextColored",      "BulletText",
    "LabelText",   "Button",          "SmallButton",       "Checkbox",      "RadioButton",      "Selectable",
    "MenuItem",    "BeginMenu",       "BeginTabItem",      "TabItemButton", "CollapsingHeader", "TreeNode",
    "SetTooltip",  "SliderFloat",     "SliderInt",         "DragFloat",     "DragInt",          "InputInt",
    "InputFloat",  "InputText",       "InputTextWithHint", "Combo",         "BeginCombo",       "TableSetupColumn",
    "ProgressBar", "AddText"};

// The literals drawn as they are: arguments of the calls above (and a plot's `caption = "…"`) that
// translate nothing.
std::vector<Found> drawn_literals(const std::string& source, const std::string& file) {
    const std::string s = strip_comments(source);
    std::vector<Found> out;
    const auto line_of = [&](size_t at) { return where(s, file, at); };
    const auto add = [&](const std::string& expr, size_t at) {
        if (calls_translation(expr)) return;
        for (const std::string& text : literals_in(expr)) out.push_back({line_of(at), text});
    };
    for (const char* name : kDrawingCalls)
        for (size_t open : calls_of(s, name)) {
            const size_t at = open - std::string(name).size();
            const bool imgui = at >= 7 && s.compare(at - 7, 7, "ImGui::") == 0;
            const bool member = at >= 2 && s.compare(at - 2, 2, "->") == 0;
            if (!imgui && !member) continue;
            for (const std::string& a : call_arguments(s, open)) add(a, at);
        }
    static const std::regex caption(R"(\bcaption\s*=\s*([^;]*);)");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), caption); it != std::sregex_iterator(); ++it)
        add((*it)[1].str(), static_cast<size_t>(it->position()));
    return out;
}

// The English words of a label as the user sees it: its "##id" part and printf conversions left out.
std::vector<std::string> english_words(std::string text) {
    if (const size_t id = text.find("##"); id != std::string::npos) text.resize(id);
    static const std::regex conversion("%[-+ #0-9.*]*(hh|h|ll|l|z)?[diouxXeEfgGcsp%]");
    text = std::regex_replace(text, conversion, " ");
    static const std::regex word("[A-Za-z]{2,}");
    std::vector<std::string> words;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it)
        words.push_back(it->str());
    return words;
}

// Words that are notation in either language: the paper's and the formulas' symbols and functions.
// (W_gate, W_up and W_down are the names of the gated FFN's matrices, as the Hugging Face files name them.)
const std::set<std::string> kNotation = {"softmax", "max", "rms",  "sin", "pos", "PE",       "LN",
                                         "RMSNorm", "FFN", "cos",  "QK",  "OV",  "Sublayer", "id",
                                         "logit",   "unk", "gate", "up",  "down"};
// Whole literals that stay as they are: names (the model presets, as --preset spells them; the English
// item of the Language menu, in its own language) and formulas whose letters are symbols.
const std::set<std::string> kVerbatim = {"tiny", "base", "English", "x = E[token]·√C + PE", "x = E[token] + PE"};

bool has_hangul(const std::string& utf8) {
    for (size_t i = 0; i + 2 < utf8.size(); ++i) {
        const auto b0 = static_cast<unsigned char>(utf8[i]), b1 = static_cast<unsigned char>(utf8[i + 1]),
                   b2 = static_cast<unsigned char>(utf8[i + 2]);
        if ((b0 & 0xF0) != 0xE0 || (b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) continue;
        const unsigned cp = ((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
        if ((cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x3130 && cp <= 0x318F))
            return true;
    }
    return false;
}

struct Source {
    std::string file, text;
};

std::vector<Source> gui_sources() {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(ATTNLAB_SOURCE_DIR) / "app" / "gui";
    std::vector<Source> out;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        const std::string ext = e.path().extension().string();
        if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h") || e.path().filename() == "i18n.cpp") continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        out.push_back({fs::relative(e.path(), root).string(), text.str()});
    }
    std::sort(out.begin(), out.end(), [](const Source& a, const Source& b) { return a.file < b.file; });
    return out;
}

}  // namespace

TEST_CASE("the i18n scan finds translated strings the ways panels write them", "[i18n]") {
    const std::string code =
        "void f(PanelContext& ctx, bool ko) {\n"
        "    ImGui::Text(\"%s\", ctx.t(\"Layer\"));  // ctx.t(\"in a comment\")\n"
        "    ImGui::Button(ctx.t(x ? \"Pause\" : \"Play\"));\n"
        "    std::snprintf(b, n, ctx.t(\"long \"\n"
        "                              \"line %d\"), 3);\n"
        "    tr(ko, \"Quit\"); f.ctx.t(\"a \\\"quote\\\"\"); at(\"not this\"); ctx->t(\"ptr\");\n"
        "    constexpr const char* names[] = {tr_noop(\"later\"), \"plain\"};\n"
        "    /* ctx.t(\"in a block comment\") */ ImGui::TextDisabled(\"softmax of row %d\", r);\n"
        "    ImGui::SliderInt(\"##layer\", &l, 0, 3); plot.caption = \"attention weight\";\n"
        "}\n";
    std::vector<std::string> texts;
    for (const Found& f : translated_strings(code, "x.cpp")) texts.push_back(f.text);
    std::sort(texts.begin(), texts.end());
    CHECK(texts ==
          std::vector<std::string>{"Layer", "Pause", "Play", "Quit", "a \"quote\"", "later", "long line %d", "ptr"});
    std::vector<std::string> drawn;
    for (const Found& f : drawn_literals(code, "x.cpp"))
        if (!english_words(f.text).empty()) drawn.push_back(f.text);
    CHECK(drawn == std::vector<std::string>{"softmax of row %d", "attention weight"});
}

TEST_CASE("every string the UI translates has its Korean", "[i18n]") {
    std::vector<Found> all;
    for (const Source& src : gui_sources())
        for (Found& f : translated_strings(src.text, src.file)) all.push_back(std::move(f));
    REQUIRE(all.size() > 400);  // the scan sees the panels: a broken scan must not pass on nothing
    for (const Found& f : all) {
        INFO(f.where << ": \"" << f.text << "\"");
        const char* ko = korean_text(f.text);
        CHECK(ko != nullptr);
        if (ko) CHECK((has_hangul(ko) || f.text == ko));
    }
}

TEST_CASE("no panel draws an English word without translating it", "[i18n]") {
    size_t seen = 0;
    for (const Source& src : gui_sources())
        for (const Found& f : drawn_literals(src.text, src.file)) {
            ++seen;
            if (kVerbatim.count(f.text)) continue;
            for (const std::string& w : english_words(f.text)) {
                INFO(f.where << ": \"" << f.text << "\" draws the English word '" << w
                             << "': pass it through ctx.t (or tr), or, if it is notation, add it to kNotation");
                CHECK(kNotation.count(w) == 1);
            }
        }
    CHECK(seen > 100);
}

TEST_CASE("no English string has two Korean entries (the table would keep the first and hide the second)", "[i18n]") {
    namespace fs = std::filesystem;
    std::ifstream in(fs::path(ATTNLAB_SOURCE_DIR) / "app" / "gui" / "i18n.cpp", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    // An entry opens a line: {"English", "Korean"} or {"English",\n "Korean"}.
    const std::regex entry(R"(\n[ \t]*\{("(?:[^"\\\n]|\\.)*")\s*,)");
    std::map<std::string, int> seen;
    for (auto it = std::sregex_iterator(source.begin(), source.end(), entry); it != std::sregex_iterator(); ++it)
        ++seen[(*it)[1].str()];
    REQUIRE(seen.size() > 800);  // the scan sees the table (905 one-line keys when written)
    for (const auto& [key, count] : seen) {
        INFO(key);
        CHECK(count == 1);
    }
}
