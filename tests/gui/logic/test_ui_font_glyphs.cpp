// Every character the UI draws is in the font atlas: the code points past ASCII in the GUI's string literals
// (app/gui), in the explanations and hand calculations core writes (core/explain, core/teach), and in the tour
// and explanation texts (assets), each found in the atlas load_ui_font builds from Debian's NanumGothic and DejaVu
// Sans, so none is drawn as ImGui's fallback. Then hidden_code_points names what the fonts cannot show.
#include "fonts.h"
#include "text/utf8.h"

#include <catch2/catch.hpp>
#include <imgui.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text inside the C++ source's string literals, comments left out (a "∈" in a comment is never drawn).
std::string string_literals(const std::string& source) {
    std::string out;
    for (size_t i = 0; i < source.size(); ++i) {
        if (source.compare(i, 2, "//") == 0) {
            i = source.find('\n', i);
            if (i == std::string::npos) break;
        } else if (source.compare(i, 2, "/*") == 0) {
            i = source.find("*/", i);
            if (i == std::string::npos) break;
            ++i;
        } else if (source[i] == '\'') {
            i = source.find('\'', i + 2);  // '"' and '\'' hold no code point past ASCII
            if (i == std::string::npos) break;
        } else if (source[i] == '"') {
            for (++i; i < source.size() && source[i] != '"'; ++i) {
                if (source[i] == '\\')
                    ++i;
                else
                    out += source[i];
            }
            out += '\n';
        }
    }
    return out;
}

// Each code point past ASCII in `text`, with the first file it came from.
void collect(const std::string& text, const std::string& where, std::map<char32_t, std::string>& found) {
    const std::string valid = attnlab::replace_invalid_utf8(text);
    for (size_t i = 0; i < valid.size();) {
        const char32_t c = attnlab::next_code_point(valid, &i);
        if (c >= 0x80) found.emplace(c, where);
    }
}

std::map<char32_t, std::string> ui_code_points() {
    const fs::path root(ATTNLAB_SOURCE_DIR);
    std::map<char32_t, std::string> found;
    for (const char* dir : {"app/gui", "core/explain", "core/teach"})
        for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
            const std::string ext = entry.path().extension().string();
            if (ext == ".cpp" || ext == ".h")
                collect(string_literals(read_text(entry.path())), fs::relative(entry.path(), root).string(), found);
        }
    for (const char* file : {"assets/tour/tour.json", "assets/explanations/en.json", "assets/explanations/ko.json"})
        collect(read_text(root / file), file, found);
    return found;
}

// An ImGui context whose atlas load_ui_font built, for one test.
struct FontAtlas {
    std::string font_file;
    FontAtlas() {
        ImGui::CreateContext();
        font_file = attnlab::gui::load_ui_font(17.0f);
        ImGui::GetIO().Fonts->Build();
    }
    ~FontAtlas() { ImGui::DestroyContext(); }
    const ImFont& font() const { return *ImGui::GetIO().Fonts->Fonts[0]; }
};

}  // namespace

TEST_CASE("every character the UI's strings, the tour and the explanations use is in the font atlas") {
    const FontAtlas atlas;
    REQUIRE(atlas.font_file.find("Nanum") != std::string::npos);  // Debian's fonts-nanum, as scripts/setup.sh installs
    const auto used = ui_code_points();
    REQUIRE(used.size() > 50);  // the scan found the strings: ·, ×, Greek, ∂, √, →, ✓ …
    REQUIRE(used.count(U'✓') == 1);
    for (const auto& [c, where] : used) {
        if (c > IM_UNICODE_CODEPOINT_MAX) {
            FAIL_CHECK("U+" << std::hex << static_cast<unsigned>(c) << " (from " << where
                            << ") is past what Debian's 16-bit ImGui can draw");
            continue;
        }
        INFO("U+" << std::hex << static_cast<unsigned>(c) << " from " << where);
        CHECK(atlas.font().FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
    }
}

TEST_CASE("hidden_code_points names what the fonts cannot show, and nothing they can") {
    const FontAtlas atlas;
    CHECK(attnlab::gui::hidden_code_points("i like red apples café 사과 ✓ ∂L/∂x").empty());
    CHECK(attnlab::gui::hidden_code_points("🍎") == "U+1F34E");                      // past 16-bit ImGui
    CHECK(attnlab::gui::hidden_code_points("e\xCC\x81") == "U+0301");                 // a combining acute
    CHECK(attnlab::gui::hidden_code_points("👩‍👧") == "U+1F469 U+200D U+1F467");  // a joined emoji
    CHECK(atlas.font().FallbackChar == 0xFFFD);  // what no font has shows as �, not as a "?" a user could type
}
